/*
** einsum.c -- numpy.einsum and numpy.einsum_path.  Two front ends mirror NumPy 1.24: the C one
** (c_einsum, optimize=False) and the Python one (einsumfunc.py, any other optimize=), each with
** its own error texts.  Both end in one plan: operands with one label per axis (diagonals taken
** by summing strides), a label size table and a path of pairwise contractions.  Each pairwise
** contraction groups its labels into batch / left / contracted / right, lays the operands out
** for BLAS (copying only when their strides demand it) and runs one matrix product per batch
** index on the kernel numpy.matmul and numpy.dot use (product.h: CBLAS dot, gemv, syrk or gemm,
** picked by shape as NumPy's dot picks them, so optimize=True steps equal NumPy's tensordot bit
** for bit; exact loops for integers and bool), or the elementwise multiply when nothing is
** contracted.  Plans are cached per Ctx by subscripts, optimize and shapes.
*/
#include "einsum.h"
#include "product.h"

#include <cblas.h>
#include <limits.h>
#include <string.h>

#define NLABELS 128
static const char einsum_symbols[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

static bool is_letter(int ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }

/* ------------------------------------------------------------------------------------------
** Label sets: labels are < 128 (letters by their ASCII code, broadcast dims 1..32).
*/
typedef struct LSet { uint64_t w[2]; } LSet;
static LSet lset_empty(void) { LSet s = {{0, 0}}; return s; }
static void lset_add(LSet *s, int l) { s->w[l >> 6] |= (uint64_t)1 << (l & 63); }
static bool lset_has(LSet s, int l) { return (s.w[l >> 6] >> (l & 63)) & 1; }
static LSet lset_or(LSet a, LSet b) { a.w[0] |= b.w[0]; a.w[1] |= b.w[1]; return a; }
static LSet lset_and(LSet a, LSet b) { a.w[0] &= b.w[0]; a.w[1] &= b.w[1]; return a; }
static LSet lset_minus(LSet a, LSet b) { a.w[0] &= ~b.w[0]; a.w[1] &= ~b.w[1]; return a; }
static bool lset_is_empty(LSet a) { return !a.w[0] && !a.w[1]; }
static bool lset_eq(LSet a, LSet b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }
static int lset_count(LSet a) { return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]); }

/* Python's arbitrary-precision sizes and FLOP counts, in long double (exact to 2**64). */
typedef long double Cost;
static Cost lset_size(LSet s, const int64_t *size) {
  Cost r = 1;
  for (int l = 0; l < NLABELS; l++)
    if (lset_has(s, l)) r *= (Cost)size[l];
  return r;
}
/* NumPy's _flop_count. */
static Cost flop_count(LSet contract, bool inner, int nterms, const int64_t *size) {
  int f = nterms - 1 > 1 ? nterms - 1 : 1;
  return lset_size(contract, size) * (Cost)(f + (inner ? 1 : 0));
}

/* ------------------------------------------------------------------------------------------
** The parsed problem: per operand, the label of each original axis (repeats = diagonal); the
** output labels; the size of each label after broadcasting.
*/
typedef struct Parsed {
  int nop, nout;
  uint8_t out[TSR_MAXDIMS];
  int64_t size[NLABELS];
  int *ndim;          /* nop entries */
  uint8_t *lab;       /* nop * TSR_MAXDIMS */
  size_t bytes;       /* of the ndim + lab block */
} Parsed;

static void parsed_free(Ctx *c, Parsed *p) {
  if (p->ndim) ctx_free(c, p->ndim, p->bytes);
  p->ndim = NULL;
  p->lab = NULL;
}
static int parsed_alloc(Ctx *c, Parsed *p, int nop) {
  memset(p, 0, sizeof *p);
  p->nop = nop;
  p->bytes = (size_t)nop * (sizeof(int) + TSR_MAXDIMS);
  if (!(p->ndim = ctx_calloc(c, p->bytes))) return -1;
  p->lab = (uint8_t *)(p->ndim + nop);
  return 0;
}
static uint8_t *op_labels(const Parsed *p, int i) { return p->lab + (size_t)i * TSR_MAXDIMS; }

/* NumPy's convert_shape_to_string: leading negative entries skipped, others "newaxis". */
static void remapped_shape(Buf *b, int n, const int64_t *v) {
  int i = 0;
  while (i < n && v[i] < 0) i++;
  if (i == n) { buf_puts(b, "()"); return; }
  buf_printf(b, "(%lld", (long long)v[i++]);
  for (; i < n; i++) {
    if (v[i] < 0) buf_puts(b, ",newaxis");
    else buf_printf(b, ",%lld", (long long)v[i]);
  }
  buf_puts(b, n == 1 ? ",)" : ")");
}

/* The collapsed (diagonal) shape of operand i: one dim per distinct label, first-occurrence
   order; labels into ul. Returns the count. */
static int collapsed(const Parsed *p, int i, const Tensor *t, uint8_t *ul, int64_t *shape) {
  int n = 0;
  const uint8_t *lab = op_labels(p, i);
  for (int a = 0; a < p->ndim[i]; a++) {
    int k = 0;
    while (k < n && ul[k] != lab[a]) k++;
    if (k == n) { ul[n] = lab[a]; shape[n++] = t->shape[a]; }
  }
  return n;
}

/* The c_einsum broadcast error over the iteration labels (output, then the others). */
static int remapped_error(Ctx *c, const Parsed *p, Tensor *const *ops, const int *counts) {
  uint8_t it[NLABELS];
  int nit = 0;
  for (int k = 0; k < p->nout; k++) it[nit++] = p->out[k];
  for (int l = 0; l < NLABELS; l++) {
    if (!counts[l]) continue;
    bool in_out = false;
    for (int k = 0; k < p->nout; k++) in_out |= p->out[k] == l;
    if (!in_out) it[nit++] = (uint8_t)l;
  }
  Buf b;
  buf_init(&b, c);
  buf_puts(&b, "operands could not be broadcast together with remapped shapes "
               "[original->remapped]: ");
  for (int i = 0; i < p->nop; i++) {
    uint8_t ul[TSR_MAXDIMS];
    int64_t sh[TSR_MAXDIMS], rm[NLABELS];
    int n = collapsed(p, i, ops[i], ul, sh);
    shape_format_compact(&b, n, sh);
    buf_puts(&b, "->");
    for (int k = 0; k < nit; k++) {
      rm[k] = -1;
      for (int j = 0; j < n; j++)
        if (ul[j] == it[k]) rm[k] = sh[j];
    }
    remapped_shape(&b, nit, rm);
    buf_putc(&b, ' ');
  }
  ERR_VALUE(c, "%s", b.failed ? "operands could not be broadcast together" : buf_str(&b));
  buf_free(&b);
  return -1;
}

/* Parses one operand's subscripts (c_einsum's parse_operand_subscripts): labels into lab
   (0 for the dims the ellipsis covers), counts updated. */
static int cparse_operand(Ctx *c, const char *s, int length, int ndim, int iop, uint8_t *lab,
                          int *counts) {
  int idim = 0, ellipsis = -1;
  for (int i = 0; i < length; i++) {
    int ch = (unsigned char)s[i];
    if (is_letter(ch)) {
      if (idim >= ndim)
        return ERR_VALUE(c, "einstein sum subscripts string contains too many subscripts for "
                            "operand %d", iop);
      lab[idim++] = (uint8_t)ch;
      counts[ch]++;
    } else if (ch == '.') {
      if (ellipsis != -1 || i + 2 >= length || s[++i] != '.' || s[++i] != '.')
        return ERR_VALUE(c, "einstein sum subscripts string contains a '.' that is not part of "
                            "an ellipsis ('...') in operand %d", iop);
      ellipsis = idim;
    } else if (ch != ' ') {
      return ERR_VALUE(c, "invalid subscript '%c' in einstein sum subscripts string, "
                          "subscripts must be letters", ch);
    }
  }
  if (ellipsis == -1) {
    if (idim != ndim)
      return ERR_VALUE(c, "operand has more dimensions than subscripts given in einstein sum, "
                          "but no '...' ellipsis provided to broadcast the extra dimensions.");
  } else if (idim < ndim) {
    int nb = ndim - idim;
    memmove(lab + ellipsis + nb, lab + ellipsis, (size_t)(idim - ellipsis));
    memset(lab + ellipsis, 0, (size_t)nb);
  }
  return 0;
}

/* c_einsum's front end: subscripts (string form) and operand shapes into p, with NumPy's
   messages.  Broadcast (ellipsis) dims get labels 1..nb, right-aligned. */
static int cparse(Ctx *c, const char *subs, int nop, Tensor *const *ops, bool view_ok,
                  Parsed *p) {
  int counts[NLABELS] = {0};
  if (parsed_alloc(c, p, nop)) return -1;
  const char *s = subs;
  int nb = 0;
  for (int iop = 0; iop < nop; iop++) {
    int length = (int)strcspn(s, ",-");
    if (iop == nop - 1 && s[length] == ',') {
      ERR_VALUE(c, "more operands provided to einstein sum function than specified in the "
                   "subscripts string");
      goto fail;
    }
    if (iop < nop - 1 && s[length] != ',') {
      ERR_VALUE(c, "fewer operands provided to einstein sum function than specified in the "
                   "subscripts string");
      goto fail;
    }
    p->ndim[iop] = ops[iop]->ndim;
    if (cparse_operand(c, s, length, ops[iop]->ndim, iop, op_labels(p, iop), counts)) goto fail;
    int zeros = 0;
    for (int a = 0; a < ops[iop]->ndim; a++) zeros += op_labels(p, iop)[a] == 0;
    if (zeros > nb) nb = zeros;
    s += length;
    if (iop < nop - 1) s++;
  }
  if (*s) {
    if (s[0] != '-' || s[1] != '>') {
      ERR_VALUE(c, "einstein sum subscript string does not contain proper '->' output "
                   "specified");
      goto fail;
    }
    s += 2;
    int length = (int)strlen(s), n = 0;
    bool ellipsis = false;
    for (int i = 0; i < length; i++) {
      int ch = (unsigned char)s[i];
      if (is_letter(ch)) {
        if (memchr(s + i + 1, ch, (size_t)(length - i - 1))) {
          ERR_VALUE(c, "einstein sum subscripts string includes output subscript '%c' "
                       "multiple times", ch);
          goto fail;
        }
        if (!counts[ch]) {
          ERR_VALUE(c, "einstein sum subscripts string included output subscript '%c' which "
                       "never appeared in an input", ch);
          goto fail;
        }
        if (n >= TSR_MAXDIMS) goto too_many;
        p->out[n++] = (uint8_t)ch;
      } else if (ch == '.') {
        if (ellipsis || i + 2 >= length || s[++i] != '.' || s[++i] != '.') {
          ERR_VALUE(c, "einstein sum subscripts string contains a '.' that is not part of an "
                       "ellipsis ('...') in the output");
          goto fail;
        }
        ellipsis = true;
        for (int k = 0; k < nb; k++) {
          if (n >= TSR_MAXDIMS) goto too_many;
          p->out[n++] = (uint8_t)(1 + k);
        }
      } else if (ch != ' ') {
        ERR_VALUE(c, "invalid subscript '%c' in einstein sum subscripts string, subscripts "
                     "must be letters", ch);
        goto fail;
      }
    }
    if (!ellipsis && nb > 0) {
      ERR_VALUE(c, "output has more dimensions than subscripts given in einstein sum, but no "
                   "'...' ellipsis provided to broadcast the extra dimensions.");
      goto fail;
    }
    p->nout = n;
  } else {
    int n = 0;
    for (int k = 0; k < nb; k++) p->out[n++] = (uint8_t)(1 + k);
    for (int l = 'A'; l <= 'z'; l++)
      if (counts[l] == 1) {
        if (n >= TSR_MAXDIMS) goto too_many;
        p->out[n++] = (uint8_t)l;
      }
    p->nout = n;
  }
  /* broadcast labels, right-aligned against the output's ellipsis */
  for (int iop = 0; iop < nop; iop++) {
    uint8_t *lab = op_labels(p, iop);
    int zeros = 0, k = 0;
    for (int a = 0; a < p->ndim[iop]; a++) zeros += lab[a] == 0;
    for (int a = 0; a < p->ndim[iop]; a++)
      if (lab[a] == 0) { lab[a] = (uint8_t)(1 + nb - zeros + k++); counts[lab[a]]++; }
  }
  /* diagonals: repeated labels of one operand need equal dims.  A lone operand without out=
     is first tried as a view, which reports mismatches in its own words until it meets a
     label that is summed. */
  for (int iop = 0; iop < nop; iop++) {
    const uint8_t *lab = op_labels(p, iop);
    bool single = nop == 1 && view_ok;
    for (int a = 0; a < p->ndim[iop]; a++) {
      bool first = true;
      for (int b = 0; b < a && first; b++) first = lab[b] != lab[a];
      if (first && !memchr(p->out, lab[a], (size_t)p->nout)) single = false;
      for (int b = 0; b < a; b++)
        if (lab[b] == lab[a]) {
          if (ops[iop]->shape[b] != ops[iop]->shape[a]) {
            if (single)
              ERR_VALUE(c, "dimensions in single operand for collapsing index '%c' don't match "
                           "(%lld != %lld)", lab[a], (long long)ops[iop]->shape[b],
                        (long long)ops[iop]->shape[a]);
            else
              ERR_VALUE(c, "dimensions in operand %d for collapsing index '%c' don't match "
                           "(%lld != %lld)", iop, lab[a], (long long)ops[iop]->shape[b],
                        (long long)ops[iop]->shape[a]);
            goto fail;
          }
          break;
        }
    }
  }
  /* label sizes with broadcasting of size-1 dims */
  for (int l = 0; l < NLABELS; l++) p->size[l] = 1;
  bool set[NLABELS] = {false};
  for (int iop = 0; iop < nop; iop++) {
    const uint8_t *lab = op_labels(p, iop);
    for (int a = 0; a < p->ndim[iop]; a++) {
      int64_t d = ops[iop]->shape[a];
      if (d == 1) continue;
      if (!set[lab[a]]) { set[lab[a]] = true; p->size[lab[a]] = d; }
      else if (p->size[lab[a]] != d) { remapped_error(c, p, ops, counts); goto fail; }
    }
  }
  return 0;
too_many:
  ERR_VALUE(c, "einstein sum subscripts string contains too many subscripts in the output");
fail:
  parsed_free(c, p);
  return -1;
}

/* ------------------------------------------------------------------------------------------
** The Python front end (einsumfunc._parse_einsum_input and einsum_path's checks): expands the
** subscripts into letters only ("ab,bc->ac") in *expanded and fills NumPy's dimension_dict
** into size.  Its own messages ("Size of label ..." etc.).
*/
static int pyparse(Ctx *c, const char *subs, int nop, Tensor *const *ops, Buf *expanded,
                   int64_t *size) {
  Buf s, tmp;
  buf_init(&s, c);
  buf_init(&tmp, c);
  int rc = -1;
  for (const char *q = subs; *q; q++)
    if (*q != ' ') buf_putc(&s, *q);
  const char *str = buf_str(&s);
  if (s.failed) goto done;
  for (const char *q = str; *q; q++)
    if (!strchr(".,->", *q) && !is_letter((unsigned char)*q)) {
      ERR_VALUE(c, "Character %c is not a valid symbol.", *q);
      goto done;
    }
  {
    int dashes = 0, gts = 0, arrows = 0;
    for (const char *q = str; *q; q++) {
      dashes += *q == '-';
      gts += *q == '>';
      arrows += q[0] == '-' && q[1] == '>';
    }
    if ((dashes || gts) && (dashes > 1 || gts > 1 || arrows != 1)) {
      ERR_VALUE(c, "Subscripts can only contain one '->'.");
      goto done;
    }
  }
  const char *arrow = strstr(str, "->");
  size_t in_len = arrow ? (size_t)(arrow - str) : strlen(str);
  if (strchr(str, '.')) {
    bool used[NLABELS] = {false};
    for (const char *q = str; *q; q++) used[(unsigned char)*q & 127] = true;
    char unused[64];
    int nun = 0;
    for (int k = 0; einsum_symbols[k]; k++)
      if (!used[(int)einsum_symbols[k]]) unused[nun++] = einsum_symbols[k];
    int longest = 0, num = 0;
    const char *sub = str, *end = str + in_len;
    while (sub <= end) {
      const char *comma = memchr(sub, ',', (size_t)(end - sub));
      size_t len = comma ? (size_t)(comma - sub) : (size_t)(end - sub);
      if (memchr(sub, '.', len)) {
        int dots = 0;
        const char *e3 = NULL;
        for (size_t k = 0; k < len; k++) dots += sub[k] == '.';
        for (size_t k = 0; k + 2 < len; k++)
          if (sub[k] == '.' && sub[k + 1] == '.' && sub[k + 2] == '.') { e3 = sub + k; break; }
        if (dots != 3 || !e3) { ERR_VALUE(c, "Invalid Ellipses."); goto done; }
        if (num >= nop) { ERR_INDEX(c, "list index out of range"); goto done; }
        int count = ops[num]->ndim == 0 ? 0 : ops[num]->ndim - ((int)len - 3);
        if (count > longest) longest = count;
        if (count < 0) { ERR_VALUE(c, "Ellipses lengths do not match."); goto done; }
        if (count > nun) { ERR_VALUE(c, "Ellipses lengths do not match."); goto done; }
        buf_putn(&tmp, sub, (size_t)(e3 - sub));
        buf_putn(&tmp, unused + nun - count, (size_t)count);
        buf_putn(&tmp, e3 + 3, len - (size_t)(e3 + 3 - sub));
      } else {
        buf_putn(&tmp, sub, len);
      }
      if (!comma) break;
      buf_putc(&tmp, ',');
      sub = comma + 1;
      num++;
    }
    const char *oe = unused + nun - longest;
    if (arrow) {
      buf_puts(&tmp, "->");
      const char *o = arrow + 2, *e3 = strstr(o, "...");
      if (e3) {
        buf_putn(&tmp, o, (size_t)(e3 - o));
        buf_putn(&tmp, oe, (size_t)longest);
        buf_puts(&tmp, e3 + 3);
      } else {
        buf_puts(&tmp, o);
      }
    } else {
      int cnt[NLABELS] = {0};
      const char *t = buf_str(&tmp);
      for (const char *q = t; *q; q++)
        if (*q != ',') cnt[(unsigned char)*q & 127]++;
      buf_puts(&tmp, "->");
      buf_putn(&tmp, oe, (size_t)longest);
      for (int l = 0; l < NLABELS; l++)
        if (cnt[l] == 1 && !memchr(oe, l, (size_t)longest)) buf_putc(&tmp, (char)l);
    }
  } else {
    buf_puts(&tmp, str);
    if (!arrow) {
      int cnt[NLABELS] = {0};
      for (const char *q = str; *q; q++)
        if (*q != ',') cnt[(unsigned char)*q & 127]++;
      buf_puts(&tmp, "->");
      for (int l = 0; l < NLABELS; l++)
        if (cnt[l] == 1) buf_putc(&tmp, (char)l);
    }
  }
  if (tmp.failed) goto done;
  {
    const char *full = buf_str(&tmp), *ar = strstr(full, "->");
    size_t ilen = (size_t)(ar - full);
    for (const char *q = ar + 2; *q; q++)
      if (!memchr(full, *q, ilen)) {
        ERR_VALUE(c, "Output character %c did not appear in the input", *q);
        goto done;
      }
    int nterms = 1;
    for (size_t k = 0; k < ilen; k++) nterms += full[k] == ',';
    if (nterms != nop) {
      ERR_VALUE(c, "Number of einsum subscripts must be equal to the number of operands.");
      goto done;
    }
    for (int l = 0; l < NLABELS; l++) size[l] = -1;
    const char *term = full;
    for (int t = 0; t < nop; t++) {
      size_t len = strcspn(term, ",-");
      if ((int)len != ops[t]->ndim) {
        ERR_VALUE(c, "Einstein sum subscript %c does not contain the correct number of indices "
                     "for operand %d.", full[t], t);
        goto done;
      }
      for (size_t k = 0; k < len; k++) {
        int ch = (unsigned char)term[k];
        int64_t dim = ops[t]->shape[k];
        if (size[ch] < 0 || size[ch] == 1) {
          size[ch] = dim;
        } else if (dim != 1 && dim != size[ch]) {
          ERR_VALUE(c, "Size of label '%c' for operand %d (%lld) does not match previous terms "
                       "(%lld).", ch, t, (long long)size[ch], (long long)dim);
          goto done;
        }
      }
      term += len + 1;
    }
    for (int l = 0; l < NLABELS; l++)
      if (size[l] < 0) size[l] = 1;
    buf_puts(expanded, full);
    rc = expanded->failed ? -1 : 0;
  }
done:
  buf_free(&s);
  buf_free(&tmp);
  return rc;
}

/* ------------------------------------------------------------------------------------------
** Paths (NumPy's _greedy_path and _optimal_path, same iteration orders and tie-breaking).
*/
typedef struct PathBuf { Ctx *c; int n, cap_steps, cap_pos, *start, *pos; } PathBuf;

static int path_push(PathBuf *pb, const int *pos, int n) {
  if (pb->n + 2 > pb->cap_steps) {
    int nc = pb->cap_steps ? pb->cap_steps * 2 : 16;
    int *p = ctx_realloc(pb->c, pb->start, (size_t)pb->cap_steps * sizeof(int),
                         (size_t)nc * sizeof(int));
    if (!p) return -1;
    pb->start = p;
    pb->cap_steps = nc;
  }
  if (pb->n == 0) pb->start[0] = 0;
  int used = pb->start[pb->n];
  if (used + n > pb->cap_pos) {
    int nc = pb->cap_pos ? pb->cap_pos * 2 : 32;
    while (nc < used + n) nc *= 2;
    int *p = ctx_realloc(pb->c, pb->pos, (size_t)pb->cap_pos * sizeof(int),
                         (size_t)nc * sizeof(int));
    if (!p) return -1;
    pb->pos = p;
    pb->cap_pos = nc;
  }
  memcpy(pb->pos + used, pos, (size_t)n * sizeof(int));
  pb->start[++pb->n] = used + n;
  return 0;
}
static void pathbuf_free(PathBuf *pb) {
  if (pb->start) ctx_free(pb->c, pb->start, (size_t)pb->cap_steps * sizeof(int));
  if (pb->pos) ctx_free(pb->c, pb->pos, (size_t)pb->cap_pos * sizeof(int));
  pb->start = pb->pos = NULL;
}
static void pathbuf_take(PathBuf *pb, EinsumPath *path) {
  path->nsteps = pb->n;
  path->start = pb->start;
  path->pos = pb->pos;
  path->start_bytes = (size_t)pb->cap_steps * sizeof(int);
  path->pos_bytes = (size_t)pb->cap_pos * sizeof(int);
  pb->start = pb->pos = NULL;
}
static int push_range(PathBuf *pb, int n) {
  int pos[256];
  if (n > 256) return ERR_VALUE(pb->c, "einsum: too many operands");
  for (int i = 0; i < n; i++) pos[i] = i;
  return path_push(pb, pos, n);
}

/* _find_contraction for two positions x < y of sets[0..n): the new set (result), the removed
   and the contracted labels; remaining (n - 1 entries) gets the others in order, then result. */
static void find_pair(const LSet *sets, int n, int x, int y, LSet out, LSet *result,
                      LSet *removed, LSet *contract, LSet *remaining) {
  LSet con = lset_or(sets[x], sets[y]), remain = out;
  int k = 0;
  for (int i = 0; i < n; i++)
    if (i != x && i != y) { remaining[k++] = sets[i]; remain = lset_or(remain, sets[i]); }
  *result = lset_and(remain, con);
  *removed = lset_minus(con, *result);
  *contract = con;
  remaining[k] = *result;
}

typedef struct Cand { Cost key0, key1; int x, y; LSet *sets; int nsets, cap; } Cand;

static int greedy_path(Ctx *c, const LSet *in, int n, LSet out, const int64_t *size,
                       Cost memory_limit, PathBuf *pb) {
  if (n == 1) { int z = 0; return path_push(pb, &z, 1); }
  if (n == 2) { int z[2] = {0, 1}; return path_push(pb, z, 2); }
  int rc = -1, ncand = 0, capc = 0, m = n;
  Cand *cand = NULL;
  size_t sets_bytes = (size_t)n * sizeof(LSet);
  LSet *cur = ctx_malloc(c, sets_bytes);
  if (!cur) return -1;
  memcpy(cur, in, sets_bytes);
  LSet all = lset_empty();
  for (int i = 0; i < n; i++) all = lset_or(all, in[i]);
  LSet nres = lset_and(all, out);
  Cost naive = flop_count(all, !lset_is_empty(lset_minus(all, nres)), n, size);
  Cost path_cost = 0;
  int new_pos = -1;   /* -1: first iteration, all pairs */
  for (int iter = 0; iter < n - 1; iter++) {
    for (int pass = 0; pass < 2; pass++) {
      if (pass == 1 && ncand) break;
      int npairs = pass == 0 && new_pos >= 0 ? new_pos : m * (m - 1) / 2;
      for (int q = 0, x = 0, y = 1; q < npairs; q++) {
        int px, py;
        if (pass == 0 && new_pos >= 0) { px = q; py = new_pos; }
        else {
          px = x; py = y;
          if (++y == m) { x++; y = x + 1; }
        }
        if (pass == 0 && lset_is_empty(lset_and(cur[px], cur[py]))) continue;
        if (ncand == capc) {
          int nc = capc ? capc * 2 : 64;
          Cand *p = ctx_realloc(c, cand, (size_t)capc * sizeof(Cand), (size_t)nc * sizeof(Cand));
          if (!p) goto done;
          cand = p;
          capc = nc;
        }
        Cand *cd = &cand[ncand];
        if (!(cd->sets = ctx_malloc(c, (size_t)(m - 1) * sizeof(LSet)))) goto done;
        cd->nsets = cd->cap = m - 1;
        LSet result, removed, contract;
        find_pair(cur, m, px, py, out, &result, &removed, &contract, cd->sets);
        Cost new_size = lset_size(result, size);
        Cost removed_size = lset_size(cur[px], size) + lset_size(cur[py], size) - new_size;
        Cost cost = flop_count(contract, !lset_is_empty(removed), 2, size);
        if (new_size > memory_limit || path_cost + cost > naive) {
          ctx_free(c, cd->sets, (size_t)cd->cap * sizeof(LSet));
          continue;
        }
        cd->key0 = -removed_size;
        cd->key1 = cost;
        cd->x = px;
        cd->y = py;
        ncand++;
      }
    }
    if (!ncand) { if (push_range(pb, m)) goto done; break; }
    int best = 0;
    for (int i = 1; i < ncand; i++)
      if (cand[i].key0 < cand[best].key0 ||
          (cand[i].key0 == cand[best].key0 && cand[i].key1 < cand[best].key1))
        best = i;
    Cand b = cand[best];
    int bxy[2] = {b.x, b.y};
    if (path_push(pb, bxy, 2)) goto done;
    path_cost += b.key1;
    /* _update_other_results */
    LSet newset = b.sets[b.nsets - 1];
    int k = 0;
    for (int i = 0; i < ncand; i++) {
      Cand cd = cand[i];
      if (i == best) continue;
      if (cd.x == b.x || cd.x == b.y || cd.y == b.x || cd.y == b.y) {
        ctx_free(c, cd.sets, (size_t)cd.cap * sizeof(LSet));
        continue;
      }
      int d1 = b.y - (b.y > cd.x) - (b.y > cd.y), d2 = b.x - (b.x > cd.x) - (b.x > cd.y);
      memmove(cd.sets + d1, cd.sets + d1 + 1, (size_t)(cd.nsets - d1 - 1) * sizeof(LSet));
      cd.nsets--;
      memmove(cd.sets + d2, cd.sets + d2 + 1, (size_t)(cd.nsets - d2 - 1) * sizeof(LSet));
      cd.nsets--;
      /* insert before the last */
      cd.sets[cd.nsets] = cd.sets[cd.nsets - 1];
      cd.sets[cd.nsets - 1] = newset;
      cd.nsets++;
      int nx = cd.x - (cd.x > b.x) - (cd.x > b.y), ny = cd.y - (cd.y > b.x) - (cd.y > b.y);
      cd.x = nx;
      cd.y = ny;
      cand[k++] = cd;
    }
    ncand = k;
    memcpy(cur, b.sets, (size_t)b.nsets * sizeof(LSet));
    ctx_free(c, b.sets, (size_t)b.cap * sizeof(LSet));
    m = b.nsets;
    new_pos = m - 1;
  }
  rc = 0;
done:
  for (int i = 0; i < ncand; i++) ctx_free(c, cand[i].sets, (size_t)cand[i].cap * sizeof(LSet));
  if (cand) ctx_free(c, cand, (size_t)capc * sizeof(Cand));
  ctx_free(c, cur, sets_bytes);
  return rc;
}

typedef struct OptEntry { Cost cost; int parent, x, y; } OptEntry;

/* NumPy's _optimal_path: breadth-first over every pair order, pruned by memory_limit. */
static int optimal_path(Ctx *c, const LSet *in, int n, LSet out, const int64_t *size,
                        Cost memory_limit, PathBuf *pb) {
  int rc = -1;
  OptEntry **lev = NULL;
  size_t *lev_bytes = NULL, sets_bytes = 0, nsets_bytes = 0;
  int64_t *lev_n = NULL;
  LSet *sets = NULL, *nsets = NULL;
  size_t lb = (size_t)n * sizeof(OptEntry *), lbb = (size_t)n * sizeof(size_t),
         lnb = (size_t)n * sizeof(int64_t);
  if (!(lev = ctx_calloc(c, lb)) || !(lev_bytes = ctx_calloc(c, lbb)) ||
      !(lev_n = ctx_calloc(c, lnb)))
    goto done;
  lev_bytes[0] = sizeof(OptEntry);
  if (!(lev[0] = ctx_malloc(c, lev_bytes[0]))) goto done;
  lev[0][0] = (OptEntry){0, -1, 0, 0};
  lev_n[0] = 1;
  sets_bytes = (size_t)n * sizeof(LSet);
  if (!(sets = ctx_malloc(c, sets_bytes))) goto done;
  memcpy(sets, in, sets_bytes);
  int level = 0, tail = -1;
  for (int iter = 0; iter < n - 1; iter++) {
    int m = n - iter, npairs = m * (m - 1) / 2;
    int64_t cap = lev_n[iter] * npairs;
    if (cap > 20000000) { ERR_MEMORY(c, "einsum_path: the 'optimal' search is too large"); goto done; }
    size_t eb = (size_t)(cap ? cap : 1) * sizeof(OptEntry);
    nsets_bytes = (size_t)(cap ? cap : 1) * (size_t)(m - 1) * sizeof(LSet);
    OptEntry *ne = ctx_malloc(c, eb);
    if (!ne) goto done;
    lev[iter + 1] = ne;
    lev_bytes[iter + 1] = eb;
    if (!(nsets = ctx_malloc(c, nsets_bytes))) goto done;
    int64_t cnt = 0;
    for (int64_t e = 0; e < lev_n[iter]; e++) {
      const LSet *rem = sets + e * m;
      for (int x = 0; x < m; x++)
        for (int y = x + 1; y < m; y++) {
          LSet result, removed, contract;
          LSet *dst = nsets + cnt * (m - 1);
          find_pair(rem, m, x, y, out, &result, &removed, &contract, dst);
          if (lset_size(result, size) > memory_limit) continue;
          ne[cnt].cost = lev[iter][e].cost + flop_count(contract, !lset_is_empty(removed), 2, size);
          ne[cnt].parent = (int)e;
          ne[cnt].x = x;
          ne[cnt].y = y;
          cnt++;
        }
      if (ctx_poll(c, (uint64_t)npairs / 64)) goto done;
    }
    ctx_free(c, sets, sets_bytes);
    sets = nsets;
    sets_bytes = nsets_bytes;
    nsets = NULL;
    if (!cnt) { tail = m; level = iter; break; }
    lev_n[iter + 1] = cnt;
    level = iter + 1;
  }
  {
    int64_t best = 0;
    for (int64_t e = 1; e < lev_n[level]; e++)
      if (lev[level][e].cost < lev[level][best].cost) best = e;
    int nst = level, (*pairs)[2] = NULL;
    size_t pbytes = (size_t)(nst ? nst : 1) * sizeof *pairs;
    if (!(pairs = ctx_malloc(c, pbytes))) goto done;
    for (int l = level; l > 0; l--) {
      pairs[l - 1][0] = lev[l][best].x;
      pairs[l - 1][1] = lev[l][best].y;
      best = lev[l][best].parent;
    }
    int ok = 0;
    for (int l = 0; l < nst && !ok; l++) ok = path_push(pb, pairs[l], 2);
    ctx_free(c, pairs, pbytes);
    if (ok || (tail > 0 && push_range(pb, tail))) goto done;
    if (n == 1 && push_range(pb, 1)) goto done;
  }
  rc = 0;
done:
  if (nsets) ctx_free(c, nsets, nsets_bytes);
  if (sets) ctx_free(c, sets, sets_bytes);
  for (int i = 0; lev && i < n; i++)
    if (lev[i]) ctx_free(c, lev[i], lev_bytes[i]);
  if (lev) ctx_free(c, lev, lb);
  if (lev_bytes) ctx_free(c, lev_bytes, lbb);
  if (lev_n) ctx_free(c, lev_n, lnb);
  return rc;
}

/* Sorts positions in descending order (NumPy's sorted(contract_inds, reverse=True)). */
static void sort_desc(int *v, int len) {
  for (int i = 1; i < len; i++)
    for (int j = i; j > 0 && v[j] > v[j - 1]; j--) { int t = v[j]; v[j] = v[j - 1]; v[j - 1] = t; }
}

/* Validates an explicit path by replaying its pops: IndexError "pop index out of range" and
   the RuntimeError of einsum_path when operands remain. */
static int check_path(Ctx *c, int nop, const EinsumPath *path) {
  int remaining = nop;
  for (int k = 0; k < path->nsteps; k++) {
    int len = path->start[k + 1] - path->start[k];
    int sorted[TSR_MAXDIMS * 4];
    if (len > (int)(sizeof sorted / sizeof sorted[0]))
      return ERR_VALUE(c, "einsum_path: too many positions in one contraction");
    memcpy(sorted, path->pos + path->start[k], (size_t)len * sizeof(int));
    sort_desc(sorted, len);
    for (int i = 0; i < len; i++) {
      int p = sorted[i];
      if (p < -remaining || p >= remaining)
        return ctx_err(c, TSR_ERR_INDEX, "IndexError", "pop index out of range");
      remaining--;
    }
    remaining++;
  }
  if (remaining != 1)
    return ERR_RUNTIME(c, "Invalid einsum_path is specified: %d more operands has to be "
                          "contracted.", remaining - 1);
  return 0;
}

/* ------------------------------------------------------------------------------------------
** Execution: operands with one label per axis, contracted pairwise.
*/
/* An operand of the plan: its tensor, labels, and whether every zero in it is known to be
   +0.0 (a GEMM's output: BLAS accumulates into zeroed registers, so it never makes -0.0). */
typedef struct Op { Tensor *t; int n; uint8_t lab[TSR_MAXDIMS]; bool plus_zero; } Op;

static LSet op_set(const Op *o) {
  LSet s = lset_empty();
  for (int i = 0; i < o->n; i++) lset_add(&s, o->lab[i]);
  return s;
}
static int op_index(const Op *o, int l) {
  for (int i = 0; i < o->n; i++)
    if (o->lab[i] == l) return i;
  return -1;
}
static void op_release(Op *o) { if (o->t) tensor_release(o->t); o->t = NULL; }

/* Sums o over its labels outside keep (replacing o->t; the dtype is kept, bool sums are
   logical or as NumPy's add for bool). */
static int op_sum(Ctx *c, Op *o, LSet keep) {
  int axes[TSR_MAXDIMS], na = 0, k = 0;
  for (int i = 0; i < o->n; i++)
    if (!lset_has(keep, o->lab[i])) axes[na++] = i;
  if (!na) return 0;
  Tensor *t = o->t->dtype == TSR_BOOL ? reduce(c, RED_ANY, o->t, axes, na, false, -1)
                                      : reduce(c, RED_SUM, o->t, axes, na, false, o->t->dtype);
  if (!t) return -1;
  for (int i = 0; i < o->n; i++)
    if (lset_has(keep, o->lab[i])) o->lab[k++] = o->lab[i];
  o->n = k;
  o->plus_zero = false;
  tensor_release(o->t);
  o->t = t;
  return 0;
}

/* Permutes o's axes into the label order given (a view). */
static int op_permute(Ctx *c, Op *o, const uint8_t *order) {
  int axes[TSR_MAXDIMS];
  bool same = true;
  for (int i = 0; i < o->n; i++) { axes[i] = op_index(o, order[i]); same &= axes[i] == i; }
  if (same) return 0;
  Tensor *t = tensor_transpose(c, o->t, axes);
  if (!t) return -1;
  tensor_release(o->t);
  o->t = t;
  memcpy(o->lab, order, (size_t)o->n);
  return 0;
}

/* Copies o into a C-contiguous tensor whose axes follow order (labels). */
static int op_copy_ordered(Ctx *c, Op *o, const uint8_t *order) {
  if (op_permute(c, o, order)) return -1;
  Tensor *t = tensor_copy(c, o->t);
  if (!t) return -1;
  tensor_release(o->t);
  o->t = t;
  return 0;
}

/* Can the axes of o labelled ls[0..n) (in that order) be walked as one axis?  Sets the
   product of their sizes and the stride (elements) of the merged axis. */
static bool merge_group(const Op *o, const uint8_t *ls, int n, int64_t *count, int64_t *stride) {
  int64_t total = 1, st = 1;
  bool have = false;
  for (int i = 0; i < n; i++) {
    int a = op_index(o, ls[i]);
    int64_t d = o->t->shape[a], s = o->t->strides[a];
    total *= d;
    if (d == 1) continue;
    if (have && st != s * d) return false;
    st = s;
    have = true;
  }
  *count = total;
  *stride = st;
  return true;
}

/* Makes an R x C matrix with row stride r and column stride c acceptable to CBLAS: 0 when it
   is row-major (c == 1), 1 when column-major (r == 1), -1 when it must be copied. */
static int blas_layout(int64_t R, int64_t C, int64_t *r, int64_t *c) {
  if (R > INT_MAX || C > INT_MAX) return -1;
  if (C == 1) *c = 1;
  if (R == 1) *r = *c == 1 ? (C > 1 ? C : 1) : 1;
  if (*c == 1 && *r >= (C > 1 ? C : 1) && *r <= INT_MAX) return 0;
  if (*r == 1 && *c >= (R > 1 ? R : 1) && *c <= INT_MAX) return 1;
  return -1;
}

/* A batch of float products run on the pool, item `it` being the product of batch index it
   (C-order over the nb batch dims of shape `shape`, operand strides sa/sb in bytes). */
typedef struct BatchGemm {
  DType dt;
  MatMul g;                  /* item 0's product */
  int nb;
  const int64_t *shape, *sa, *sb;
  int64_t cstep;             /* bytes between consecutive products' outputs */
} BatchGemm;

static void batch_gemm_task(void *arg, int64_t lo, int64_t hi) {
  const BatchGemm *b = arg;
  for (int64_t it = lo; it < hi; it++) {
    MatMul g = b->g;
    int64_t rest = it;
    for (int d = b->nb - 1; d >= 0; d--) {
      int64_t i = rest % b->shape[d];
      rest /= b->shape[d];
      g.A += i * b->sa[d];
      g.B += i * b->sb[d];
    }
    g.C += it * b->cstep;
    linalg_product(b->dt, &g, NULL);
  }
}

/* Products this small (M*N*K multiply-adds) run as a batch on tsr's pool, each on one
   thread's BLAS, rather than one after another on BLAS's threads: OpenBLAS wakes and
   synchronises its threads on every call, which for a 64x64x64 product costs more than the
   product itself.  Each product is the same BLAS call either way, so results are identical. */
#define BATCH_GEMM_MAX ((uint64_t)1 << 21)

/* Contracts A and B (both owned, released here) into *res: labels of either that are not in
   keep are summed.  Result labels: batch (A's order), left (A's), right (B's). */
static int contract_pair(Ctx *c, Op *A, Op *B, LSet keep, Op *res) {
  int rc = -1;
  Tensor *C = NULL, *va = NULL, *vb = NULL;
  uint64_t *row = NULL;
  size_t row_bytes = 0;
  res->t = NULL;
  res->plus_zero = false;
  LSet sa = op_set(A), sb = op_set(B);
  if (op_sum(c, A, lset_or(keep, sb)) || op_sum(c, B, lset_or(keep, sa))) goto done;
  sa = op_set(A);
  sb = op_set(B);
  uint8_t bl[TSR_MAXDIMS], ll[TSR_MAXDIMS], kl[TSR_MAXDIMS], rl[TSR_MAXDIMS];
  int nb = 0, nl = 0, nk = 0, nr = 0;
  for (int i = 0; i < A->n; i++) {
    int l = A->lab[i];
    if (!lset_has(sb, l)) ll[nl++] = (uint8_t)l;
    else if (lset_has(keep, l)) bl[nb++] = (uint8_t)l;
    else kl[nk++] = (uint8_t)l;
  }
  for (int i = 0; i < B->n; i++)
    if (!lset_has(sa, B->lab[i])) rl[nr++] = B->lab[i];
  if (nb + nl + nr > TSR_MAXDIMS) { ERR_VALUE(c, "einsum: too many dimensions"); goto done; }
  res->n = 0;
  for (int i = 0; i < nb; i++) res->lab[res->n++] = bl[i];
  for (int i = 0; i < nl; i++) res->lab[res->n++] = ll[i];
  for (int i = 0; i < nr; i++) res->lab[res->n++] = rl[i];
  if (nk == 0) {
    /* outer or Hadamard product: the elementwise engine */
    int64_t sha[TSR_MAXDIMS], sta[TSR_MAXDIMS], shb[TSR_MAXDIMS], stb[TSR_MAXDIMS];
    for (int i = 0; i < res->n; i++) {
      int a = op_index(A, res->lab[i]), b = op_index(B, res->lab[i]);
      sha[i] = a >= 0 ? A->t->shape[a] : 1;
      sta[i] = a >= 0 ? A->t->strides[a] : 0;
      shb[i] = b >= 0 ? B->t->shape[b] : 1;
      stb[i] = b >= 0 ? B->t->strides[b] : 0;
    }
    if (!(va = tensor_view(A->t, res->n, sha, sta, A->t->offset)) ||
        !(vb = tensor_view(B->t, res->n, shb, stb, B->t->offset)) ||
        !(res->t = ufunc_binary(c, UF_MULTIPLY, va, vb, NULL)))
      goto done;
    rc = 0;
    goto done;
  }
  DType dt = A->t->dtype;
  bool fl = dtype_is_float(dt);
  int64_t M = 1, N = 1, K = 1, Kb, am, ak, bk, bn;
  int la = -1, lb = -1;
  for (int i = 0; i < nl; i++) M *= A->t->shape[op_index(A, ll[i])];
  for (int i = 0; i < nk; i++) K *= A->t->shape[op_index(A, kl[i])];
  for (int i = 0; i < nr; i++) N *= B->t->shape[op_index(B, rl[i])];
  for (int i = 0; i < nb; i++) M *= A->t->shape[op_index(A, bl[i])] ? 1 : 0;
  if (M == 0 || N == 0 || K == 0) {
    int64_t shape[TSR_MAXDIMS];
    for (int i = 0; i < res->n; i++) {
      int a = op_index(A, res->lab[i]);
      shape[i] = a >= 0 ? A->t->shape[a] : B->t->shape[op_index(B, res->lab[i])];
    }
    if ((res->t = tensor_zeros(c, dt, res->n, shape))) rc = 0;
    res->plus_zero = true;
    goto done;
  }
  if (merge_group(A, ll, nl, &M, &am) && merge_group(A, kl, nk, &K, &ak))
    la = fl ? blas_layout(M, K, &am, &ak) : 0;
  if (la < 0) {
    uint8_t order[TSR_MAXDIMS];
    memcpy(order, bl, (size_t)nb);
    memcpy(order + nb, ll, (size_t)nl);
    memcpy(order + nb + nl, kl, (size_t)nk);
    if (op_copy_ordered(c, A, order)) goto done;
    merge_group(A, ll, nl, &M, &am);
    merge_group(A, kl, nk, &K, &ak);
    la = fl ? blas_layout(M, K, &am, &ak) : 0;
  }
  if (merge_group(B, kl, nk, &Kb, &bk) && merge_group(B, rl, nr, &N, &bn))
    lb = fl ? blas_layout(K, N, &bk, &bn) : 0;
  if (lb < 0) {
    uint8_t order[TSR_MAXDIMS];
    memcpy(order, bl, (size_t)nb);
    memcpy(order + nb, kl, (size_t)nk);
    memcpy(order + nb + nk, rl, (size_t)nr);
    if (op_copy_ordered(c, B, order)) goto done;
    merge_group(B, kl, nk, &Kb, &bk);
    merge_group(B, rl, nr, &N, &bn);
    lb = fl ? blas_layout(K, N, &bk, &bn) : 0;
  }
  if (fl && (la < 0 || lb < 0)) { ERR_VALUE(c, "einsum: internal layout error"); goto done; }
  int64_t shape[TSR_MAXDIMS];
  for (int i = 0; i < res->n; i++) {
    int a = op_index(A, res->lab[i]);
    shape[i] = a >= 0 ? A->t->shape[a] : B->t->shape[op_index(B, res->lab[i])];
  }
  if (!(C = tensor_empty(c, dt, res->n, shape))) goto done;
  int64_t total = tensor_size(C);
  {
    int64_t isz = (int64_t)dtype_size(dt), sa_[TSR_MAXDIMS], sb_[TSR_MAXDIMS], idx[TSR_MAXDIMS];
    for (int i = 0; i < nb; i++) {
      sa_[i] = A->t->strides[op_index(A, bl[i])] * isz;
      sb_[i] = B->t->strides[op_index(B, bl[i])] * isz;
      idx[i] = 0;
    }
    MatMul g = {M, N, K, tensor_data(A->t), am, ak, tensor_data(B->t), bk, bn, tensor_data(C), N};
    int64_t nbatch = total / (M * N);
    uint64_t work = (uint64_t)(M * N) * (uint64_t)K, acc = 0;
    if (!fl) {
      row_bytes = (size_t)(M > N ? M : N) * sizeof *row;
      if (!(row = ctx_malloc(c, row_bytes))) goto done;
    }
    if (fl && nbatch >= 2 && work <= BATCH_GEMM_MAX && pool_width(c, nbatch, 1) > 1 &&
        blas_serial_begin()) {
      BatchGemm bg = {dt, g, nb, C->shape, sa_, sb_, M * N * isz};
      int prc = pool_parallel_for_polled(c, nbatch, 1, batch_gemm_task, &bg,
                                        (int64_t)work * WORK_FLOP);
      blas_serial_end();
      if (prc) goto done;
      nbatch = 0;   /* all done */
    }
    for (int64_t it = 0; it < nbatch; it++) {
      linalg_product(dt, &g, row);
      g.C += M * N * isz;
      acc += work;
      if (acc >= 1u << 20) {
        if (ctx_work(c, acc, WORK_FLOP)) goto done;
        acc = 0;
      }
      for (int d = nb - 1; d >= 0; d--) {
        g.A += sa_[d];
        g.B += sb_[d];
        if (++idx[d] < C->shape[d]) break;
        g.A -= sa_[d] * C->shape[d];
        g.B -= sb_[d] * C->shape[d];
        idx[d] = 0;
      }
    }
    if (ctx_work(c, acc, WORK_FLOP)) goto done;
  }
  res->t = C;
  res->plus_zero = fl && !(M == 1 && N == 1);   /* a dot may return its one product's -0.0 */
  C = NULL;
  rc = 0;
done:
  if (row) ctx_free(c, row, row_bytes);
  if (va) tensor_release(va);
  if (vb) tensor_release(vb);
  if (C) tensor_release(C);
  op_release(A);
  op_release(B);
  return rc;
}

/* Runs path over ops (owned; all released), giving the result with labels out[0..nout);
   *plus_zero tells whether the result is known to hold no -0.0. */
static Tensor *execute(Ctx *c, Op *ops, int nop, const EinsumPath *path, const uint8_t *out,
                       int nout, bool *plus_zero) {
  LSet outset = lset_empty();
  for (int i = 0; i < nout; i++) lset_add(&outset, out[i]);
  Op *list = ops, tmp[TSR_MAXDIMS * 4];
  int n = nop;
  Tensor *r = NULL;
  for (int k = 0; k < path->nsteps; k++) {
    int len = path->start[k + 1] - path->start[k], pos[TSR_MAXDIMS * 4];
    memcpy(pos, path->pos + path->start[k], (size_t)len * sizeof(int));
    sort_desc(pos, len);
    for (int i = 0; i < len; i++) {
      int p = pos[i] < 0 ? pos[i] + n : pos[i];
      tmp[i] = list[p];
      memmove(list + p, list + p + 1, (size_t)(n - p - 1) * sizeof(Op));
      n--;
    }
    LSet rest = outset;
    for (int i = 0; i < n; i++) rest = lset_or(rest, op_set(&list[i]));
    Op acc = tmp[0];
    tmp[0].t = NULL;
    int fail = 0;
    if (len == 1) {
      fail = op_sum(c, &acc, rest);
    }
    for (int i = 1; i < len && !fail; i++) {
      LSet keep = rest;
      for (int j = i + 1; j < len; j++) keep = lset_or(keep, op_set(&tmp[j]));
      Op res;
      fail = contract_pair(c, &acc, &tmp[i], keep, &res);
      acc = res;
    }
    if (fail) {
      op_release(&acc);
      for (int i = 0; i < len; i++) op_release(&tmp[i]);
      goto fail;
    }
    list[n++] = acc;
  }
  if (op_sum(c, &list[0], outset) || op_permute(c, &list[0], out)) goto fail;
  r = list[0].t;
  *plus_zero = list[0].plus_zero;
  list[0].t = NULL;
fail:
  for (int i = 0; i < n; i++) op_release(&list[i]);
  return r;
}

/* ------------------------------------------------------------------------------------------
** The plan cache: subscripts, optimize and shapes -> parse result and path.
*/
#define CACHE_SLOTS 16
typedef struct CacheEntry { char *key; size_t key_len; Parsed p; EinsumPath path; } CacheEntry;
typedef struct EinsumCache { CacheEntry e[CACHE_SLOTS]; int next; } EinsumCache;

void einsum_path_free(Ctx *c, EinsumPath *path) {
  if (path->start) ctx_free(c, path->start, path->start_bytes);
  if (path->pos) ctx_free(c, path->pos, path->pos_bytes);
  memset(path, 0, sizeof *path);
}

static void cache_entry_free(Ctx *c, CacheEntry *e) {
  if (e->key) ctx_free(c, e->key, e->key_len);
  parsed_free(c, &e->p);
  einsum_path_free(c, &e->path);
  memset(e, 0, sizeof *e);
}

void einsum_cache_free(Ctx *c) {
  EinsumCache *ec = c->einsum_cache;
  if (!ec) return;
  for (int i = 0; i < CACHE_SLOTS; i++) cache_entry_free(c, &ec->e[i]);
  ctx_free(c, ec, sizeof *ec);
  c->einsum_cache = NULL;
}

/* The key bytes of a call (subscripts, strategy, memory limit, shapes). */
static void cache_key(Buf *b, const char *subs, int nop, Tensor *const *ops, const EinsumOpt *o) {
  buf_puts(b, subs);
  buf_putc(b, 0);
  buf_putn(b, (const char *)&o->kind, sizeof o->kind);
  buf_putn(b, (const char *)&o->memory_limit, sizeof o->memory_limit);
  buf_putn(b, (const char *)&nop, sizeof nop);
  for (int i = 0; i < nop; i++) {
    buf_putn(b, (const char *)&ops[i]->ndim, sizeof(int));
    buf_putn(b, (const char *)ops[i]->shape, (size_t)ops[i]->ndim * sizeof(int64_t));
  }
  if (o->kind == EINSUM_OPT_EXPLICIT) {
    buf_putn(b, (const char *)&o->nsteps, sizeof o->nsteps);
    buf_putn(b, (const char *)o->start, (size_t)(o->nsteps + 1) * sizeof(int));
    buf_putn(b, (const char *)o->pos, (size_t)o->start[o->nsteps] * sizeof(int));
  }
  if (o->kind == EINSUM_OPT_UNKNOWN && o->name) buf_puts(b, o->name);
}

/* ------------------------------------------------------------------------------------------
** Planning: parse (C or Python front end) and find the execution path.
*/
static LSet term_set(const Parsed *p, int i) {
  LSet s = lset_empty();
  for (int a = 0; a < p->ndim[i]; a++) lset_add(&s, op_labels(p, i)[a]);
  return s;
}

/* NumPy's default memory limit: the largest input or output size, counting repeated labels. */
static Cost default_memory_limit(const Parsed *p, const int64_t *size) {
  Cost mx = 1;
  for (int i = 0; i < p->nop; i++) {
    Cost s = 1;
    for (int a = 0; a < p->ndim[i]; a++) s *= (Cost)size[op_labels(p, i)[a]];
    if (s > mx) mx = s;
  }
  Cost so = 1;
  for (int k = 0; k < p->nout; k++) so *= (Cost)size[p->out[k]];
  return so > mx ? so : mx;
}

/* Searches a path (greedy or optimal) as einsum_path does for the parsed problem. */
static int search_path(Ctx *c, const Parsed *p, const int64_t *size, EinsumOptKind kind,
                       double memory_limit, const char *name, PathBuf *pb) {
  LSet outset = lset_empty(), all = lset_empty();
  for (int k = 0; k < p->nout; k++) lset_add(&outset, p->out[k]);
  size_t sb = (size_t)p->nop * sizeof(LSet);
  LSet *sets = ctx_malloc(c, sb);
  if (!sets) return -1;
  for (int i = 0; i < p->nop; i++) { sets[i] = term_set(p, i); all = lset_or(all, sets[i]); }
  Cost limit = memory_limit >= 0 ? (Cost)(int64_t)memory_limit : default_memory_limit(p, size);
  int rc;
  if (p->nop <= 2 || lset_eq(all, outset)) rc = push_range(pb, p->nop);
  else if (kind == EINSUM_OPT_UNKNOWN)
    rc = ctx_err(c, TSR_ERR_VALUE, "KeyError", "('Path name %%s not found', '%s')", name);
  else if (kind == EINSUM_OPT_OPTIMAL) rc = optimal_path(c, sets, p->nop, outset, size, limit, pb);
  else rc = greedy_path(c, sets, p->nop, outset, size, limit, pb);
  ctx_free(c, sets, sb);
  return rc;
}

/* Python front end + C parse of the expanded string; sizes gets NumPy's dimension_dict. */
static int plan_python(Ctx *c, const char *subs, int nop, Tensor *const *ops, Parsed *p,
                       int64_t *size, Buf *expanded) {
  if (pyparse(c, subs, nop, ops, expanded, size)) return -1;
  return cparse(c, buf_str(expanded), nop, ops, false, p);
}

/* ------------------------------------------------------------------------------------------
** einsum_path's report.
*/
static int report(Ctx *c, const Parsed *p, const int64_t *size, const char *expanded,
                  const EinsumPath *path, Buf *b) {
  int nop = p->nop, n = nop, rc = -1;
  /* the terms as strings, with NumPy's names for intermediates */
  typedef struct Term { char s[NLABELS]; LSet set; } Term;
  size_t tb = (size_t)(nop + 1) * sizeof(Term);
  Term *terms = ctx_calloc(c, tb);
  Buf lines;
  buf_init(&lines, c);
  if (!terms) goto done;
  const char *ar = strstr(expanded, "->"), *q = expanded;
  for (int i = 0; i < nop; i++) {
    size_t len = strcspn(q, ",-");
    memcpy(terms[i].s, q, len);
    terms[i].set = term_set(p, i);
    q += len + 1;
  }
  const char *out_s = ar + 2;
  LSet outset = lset_empty(), all = lset_empty();
  for (const char *o = out_s; *o; o++) lset_add(&outset, (unsigned char)*o);
  int sum_len = 0;
  for (int i = 0; i < nop; i++) {
    all = lset_or(all, terms[i].set);
    sum_len += lset_count(terms[i].set);
  }
  Cost naive = flop_count(all, sum_len - lset_count(all) > 0, nop, size);
  Cost opt = 0, max_size = 0;
  int max_scale = 0;
  for (int k = 0; k < path->nsteps; k++) {
    int len = path->start[k + 1] - path->start[k], pos[TSR_MAXDIMS * 4];
    memcpy(pos, path->pos + path->start[k], (size_t)len * sizeof(int));
    sort_desc(pos, len);
    LSet con = lset_empty(), remain = outset;
    bool in[NLABELS * 4] = {false};
    for (int i = 0; i < len; i++)
      if (pos[i] >= 0) { in[pos[i]] = true; con = lset_or(con, terms[pos[i]].set); }
    for (int i = 0; i < n; i++)
      if (!in[i]) remain = lset_or(remain, terms[i].set);
    LSet result = lset_and(remain, con), removed = lset_minus(con, result);
    Cost cost = flop_count(con, !lset_is_empty(removed), len, size);
    opt += cost;
    int scale = lset_count(con);
    if (scale > max_scale) max_scale = scale;
    Cost rs = lset_size(result, size);
    if (rs > max_size) max_size = rs;
    Buf cur;
    buf_init(&cur, c);
    Term popped[TSR_MAXDIMS * 4];
    for (int i = 0; i < len; i++) {
      int p = pos[i] < 0 ? pos[i] + n : pos[i];
      popped[i] = terms[p];
      memmove(terms + p, terms + p + 1, (size_t)(n - p - 1) * sizeof(Term));
      n--;
      if (i) buf_putc(&cur, ',');
      buf_puts(&cur, popped[i].s);
    }
    Term nt;
    memset(&nt, 0, sizeof nt);
    nt.set = result;
    if (k == path->nsteps - 1) {
      strcpy(nt.s, out_s);
    } else {
      /* sorted by (size, label) */
      int m = 0;
      for (int l = 0; l < NLABELS; l++)
        if (lset_has(result, l)) nt.s[m++] = (char)l;
      for (int i = 1; i < m; i++)
        for (int j = i; j > 0; j--) {
          int64_t s1 = size[(int)nt.s[j - 1]], s2 = size[(int)nt.s[j]];
          if (s1 > s2 || (s1 == s2 && nt.s[j - 1] > nt.s[j])) {
            char t = nt.s[j]; nt.s[j] = nt.s[j - 1]; nt.s[j - 1] = t;
          }
        }
    }
    terms[n++] = nt;
    buf_puts(&cur, "->");
    buf_puts(&cur, nt.s);
    Buf rem;
    buf_init(&rem, c);
    for (int i = 0; i < n; i++) {
      if (i) buf_putc(&rem, ',');
      buf_puts(&rem, terms[i].s);
    }
    buf_puts(&rem, "->");
    buf_puts(&rem, out_s);
    buf_printf(&lines, "\n%4d    %24s %40s", scale, buf_str(&cur), buf_str(&rem));
    buf_free(&cur);
    buf_free(&rem);
  }
  opt += 1;
  buf_printf(b, "  Complete contraction:  %s\n", expanded);
  buf_printf(b, "         Naive scaling:  %d\n", lset_count(all));
  buf_printf(b, "     Optimized scaling:  %d\n", max_scale);
  buf_printf(b, "      Naive FLOP count:  %.3e\n", (double)naive);
  buf_printf(b, "  Optimized FLOP count:  %.3e\n", (double)opt);
  buf_printf(b, "   Theoretical speedup:  %3.3f\n", (double)naive / (double)opt);
  buf_printf(b, "  Largest intermediate:  %.3e elements\n", (double)max_size);
  for (int i = 0; i < 74; i++) buf_putc(b, '-');
  buf_printf(b, "\n%6s %24s %40s\n", "scaling", "current", "remaining");
  for (int i = 0; i < 74; i++) buf_putc(b, '-');
  buf_puts(b, buf_str(&lines));
  rc = b->failed || lines.failed ? -1 : 0;
done:
  buf_free(&lines);
  if (terms) ctx_free(c, terms, tb);
  return rc;
}

int einsum_path(Ctx *c, const char *subscripts, int nop, Tensor *const *ops,
                const EinsumOpt *opt, EinsumPath *path, Buf *rep) {
  Parsed p;
  int64_t size[NLABELS];
  Buf ex;
  PathBuf pb = {c, 0, 0, 0, NULL, NULL};
  memset(path, 0, sizeof *path);
  if (nop > 128) return ERR_VALUE(c, "too many operands");
  memset(&p, 0, sizeof p);
  buf_init(&ex, c);
  int rc = -1;
  if (plan_python(c, subscripts, nop, ops, &p, size, &ex)) goto done;
  if (opt->kind == EINSUM_OPT_EXPLICIT) {
    for (int k = 0; k < opt->nsteps; k++)
      if (path_push(&pb, opt->pos + opt->start[k], opt->start[k + 1] - opt->start[k])) goto done;
    pathbuf_take(&pb, path);
    if (check_path(c, nop, path)) goto done;
  } else {
    EinsumOptKind kind = opt->kind == EINSUM_OPT_NONE ? EINSUM_OPT_NONE : opt->kind;
    if (kind == EINSUM_OPT_NONE) {
      if (push_range(&pb, nop)) goto done;
    } else if (search_path(c, &p, size, kind, opt->memory_limit, opt->name, &pb)) {
      goto done;
    }
    pathbuf_take(&pb, path);
  }
  rc = report(c, &p, size, buf_str(&ex), path, rep);
done:
  if (rc) einsum_path_free(c, path);
  pathbuf_free(&pb);
  parsed_free(c, &p);
  buf_free(&ex);
  return rc;
}

/* ------------------------------------------------------------------------------------------
** einsum
*/

/* numpy.can_cast(from, to, casting) between tsr's dtypes. */
static const char *const casting_names[] = {"safe", "no", "equiv", "same_kind", "unsafe"};
static bool can_cast(DType from, DType to, EinsumCasting rule) {
  static const char kinds[] = "buif";
  switch (rule) {
  case EINSUM_CAST_NO: case EINSUM_CAST_EQUIV: return from == to;
  case EINSUM_CAST_SAFE: return dtype_promote(from, to) == to;
  case EINSUM_CAST_SAME_KIND:
    return dtype_promote(from, to) == to ||
           strchr(kinds, dtype_info[from].kind) <= strchr(kinds, dtype_info[to].kind);
  case EINSUM_CAST_UNSAFE: return true;
  }
  return false;
}

/* Operand i as an Op: diagonal view (strides of repeated labels summed), converted to dt,
   size-1 dims broadcast (stride 0) to the label sizes. */
static int make_op(Ctx *c, const Parsed *p, int i, Tensor *t, DType dt, Op *o) {
  const uint8_t *lab = op_labels(p, i);
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS];
  o->n = 0;
  o->t = NULL;
  o->plus_zero = false;
  for (int a = 0; a < p->ndim[i]; a++) {
    int k = op_index(o, lab[a]);
    if (k < 0) {
      k = o->n++;
      o->lab[k] = lab[a];
      shape[k] = t->shape[a];
      strides[k] = 0;
    }
    strides[k] += t->strides[a];
  }
  Tensor *v = tensor_view(t, o->n, shape, strides, t->offset);
  if (!v) return -1;
  if (v->dtype != dt) {
    Tensor *w = tensor_astype(c, v, dt);
    tensor_release(v);
    if (!(v = w)) return -1;
  }
  bool bc = false;
  for (int k = 0; k < o->n; k++) bc |= v->shape[k] != p->size[o->lab[k]];
  if (bc) {
    for (int k = 0; k < o->n; k++) {
      shape[k] = p->size[o->lab[k]];
      strides[k] = v->shape[k] == shape[k] ? v->strides[k] : 0;
    }
    Tensor *w = tensor_view(v, o->n, shape, strides, v->offset);
    tensor_release(v);
    if (!(v = w)) return -1;
  }
  o->t = v;
  return 0;
}

/* x + 0.0 for every element: NumPy's c_einsum adds its sums into a zeroed output, so a sum
   of negative zeros is +0.0 there, where elementwise products, tsr's reductions and a dot of
   one product keep -0.0.  (Skipped when the last step was a GEMM, which makes no -0.0.) */
static void positive_zero_loop(char **data, const int64_t *steps, int64_t n, void *aux) {
  DType dt = *(const DType *)aux;
  char *p = data[0];
  if (dt == TSR_FLOAT64 && steps[0] == 8) {   /* dense: a loop the compiler vectorises */
    double *d = (double *)p;
    for (int64_t i = 0; i < n; i++) d[i] += 0.0;
  } else if (dt == TSR_FLOAT64)
    for (int64_t i = 0; i < n; i++, p += steps[0]) *(double *)p += 0.0;
  else
    for (int64_t i = 0; i < n; i++, p += steps[0]) *(float *)p += 0.0f;
}

/* The plan for a call: from the cache, or parsed and searched now (then cached). */
static int get_plan(Ctx *c, const char *subs, int nop, Tensor *const *ops, const EinsumOpt *opt,
                    bool view_ok, const Parsed **pp, const EinsumPath **path) {
  Buf key;
  buf_init(&key, c);
  cache_key(&key, subs, nop, ops, opt);
  if (key.failed) { buf_free(&key); return -1; }
  EinsumCache *ec = c->einsum_cache;
  if (!ec) {
    if (!(ec = ctx_calloc(c, sizeof *ec))) { buf_free(&key); return -1; }
    c->einsum_cache = ec;
  }
  for (int i = 0; i < CACHE_SLOTS; i++) {
    CacheEntry *e = &ec->e[i];
    if (e->key && e->key_len == key.n && memcmp(e->key, key.p, key.n) == 0) {
      buf_free(&key);
      *pp = &e->p;
      *path = &e->path;
      return 0;
    }
  }
  CacheEntry ne;
  memset(&ne, 0, sizeof ne);
  int64_t size[NLABELS];
  Buf ex;
  PathBuf pb = {c, 0, 0, 0, NULL, NULL};
  buf_init(&ex, c);
  int rc = -1;
  if (opt->kind == EINSUM_OPT_NONE) {
    if (cparse(c, subs, nop, ops, view_ok, &ne.p)) goto done;
    memcpy(size, ne.p.size, sizeof size);
    if (search_path(c, &ne.p, size, EINSUM_OPT_GREEDY, -1, NULL, &pb)) goto done;
  } else {
    if (plan_python(c, subs, nop, ops, &ne.p, size, &ex)) goto done;
    if (opt->kind == EINSUM_OPT_EXPLICIT) {
      for (int k = 0; k < opt->nsteps; k++)
        if (path_push(&pb, opt->pos + opt->start[k], opt->start[k + 1] - opt->start[k]))
          goto done;
    } else if (search_path(c, &ne.p, size, opt->kind, opt->memory_limit, opt->name, &pb)) {
      goto done;
    }
  }
  pathbuf_take(&pb, &ne.path);
  if (opt->kind == EINSUM_OPT_EXPLICIT && check_path(c, nop, &ne.path)) goto done;
  if (!(ne.key = ctx_malloc(c, key.n))) goto done;
  memcpy(ne.key, key.p, key.n);
  ne.key_len = key.n;
  CacheEntry *slot = &ec->e[ec->next];
  ec->next = (ec->next + 1) % CACHE_SLOTS;
  cache_entry_free(c, slot);
  *slot = ne;
  memset(&ne, 0, sizeof ne);
  *pp = &slot->p;
  *path = &slot->path;
  rc = 0;
done:
  cache_entry_free(c, &ne);
  pathbuf_free(&pb);
  buf_free(&ex);
  buf_free(&key);
  return rc;
}

Tensor *einsum_compute(Ctx *c, const char *subscripts, int nop, Tensor *const *ops,
                       const EinsumOpt *opt, int dtype, Tensor *out) {
  const Parsed *p;
  const EinsumPath *path;
  if (nop > 128) {
    ERR_VALUE(c, "too many operands");
    return NULL;
  }
  if (nop < 1 && opt->kind == EINSUM_OPT_NONE) {
    ERR_VALUE(c, "must specify the einstein sum subscripts string and at least one operand");
    return NULL;
  }
  if (get_plan(c, subscripts, nop, ops, opt, !out, &p, &path)) return NULL;
  if (nop == 1 && !out) {
    /* no summation: NumPy returns a view ('ii->i', 'ij->ji'), whatever dtype= says */
    LSet outset = lset_empty(), in = lset_empty();
    for (int k = 0; k < p->nout; k++) lset_add(&outset, p->out[k]);
    for (int a = 0; a < p->ndim[0]; a++) lset_add(&in, op_labels(p, 0)[a]);
    if (lset_eq(in, outset)) {
      Op o;
      if (make_op(c, p, 0, ops[0], ops[0]->dtype, &o)) return NULL;
      if (op_permute(c, &o, p->out)) { op_release(&o); return NULL; }
      return o.t;
    }
  }
  /* the output operand's shape */
  if (out) {
    bool ok = out->ndim == p->nout;
    for (int k = 0; ok && k < p->nout; k++) ok = out->shape[k] == p->size[p->out[k]];
    if (!ok) {
      Buf b;
      buf_init(&b, c);
      buf_puts(&b, "operands could not be broadcast together with remapped shapes "
                   "[original->remapped]: ");
      for (int i = 0; i <= nop; i++) {
        Tensor *t = i < nop ? ops[i] : out;
        shape_format_compact(&b, t->ndim, t->shape);
        buf_puts(&b, "->");
        remapped_shape(&b, t->ndim, t->shape);
        buf_putc(&b, ' ');
      }
      ERR_VALUE(c, "%s", b.failed ? "operands could not be broadcast together" : buf_str(&b));
      buf_free(&b);
      return NULL;
    }
  }
  /* dtypes: NumPy's common dtype of the operands (and out), or dtype= with safe casting */
  DType dt;
  if (dtype >= 0) {
    dt = (DType)dtype;
    for (int i = 0; i < nop; i++)
      if (!(ops[i]->weak && dtype_promote_weak(dt, (WeakKind)ops[i]->weak) == dt) &&
          !can_cast(ops[i]->dtype, dt, opt->casting)) {
        ERR_TYPE(c, "Iterator operand %d dtype could not be cast from dtype('%s') to "
                    "dtype('%s') according to the rule '%s'", i, dtype_name(ops[i]->dtype),
                 dtype_name(dt), casting_names[opt->casting]);
        return NULL;
      }
  } else {
    /* Python scalars are weak (NEP 50): the tensors' common dtype first, then the scalars
       (all scalars: their own dtypes, as strong ones) */
    int first = -1;
    for (int i = 0; i < nop && first < 0; i++)
      if (!ops[i]->weak) first = i;
    dt = first >= 0 ? ops[first]->dtype : ops[0]->dtype;
    for (int i = 0; i < nop; i++)
      if (first < 0 || !ops[i]->weak) dt = dtype_promote(dt, ops[i]->dtype);
    if (out) dt = dtype_promote(dt, out->dtype);
    for (int i = 0; first >= 0 && i < nop; i++)
      if (ops[i]->weak) dt = dtype_promote_weak(dt, (WeakKind)ops[i]->weak);
  }
  if (out) {
    if (!can_cast(dt, out->dtype, opt->casting)) {
      ERR_TYPE(c, "Iterator requested dtype could not be cast from dtype('%s') to dtype('%s'), "
                  "the operand %d dtype, according to the rule '%s'", dtype_name(dt),
               dtype_name(out->dtype), nop, casting_names[opt->casting]);
      return NULL;
    }
    if (tensor_check_writable(c, out)) return NULL;
  }
  size_t ob = (size_t)nop * sizeof(Op);
  Op *list = ctx_calloc(c, ob);
  if (!list) return NULL;
  Tensor *r = NULL;
  for (int i = 0; i < nop; i++)
    if (make_op(c, p, i, ops[i], dt, &list[i])) goto fail;
  bool plus_zero = false;
  r = execute(c, list, nop, path, p->out, p->nout, &plus_zero);
  ctx_free(c, list, ob);
  if (!r) return NULL;
  if (dtype_is_float(dt) && !plus_zero && iter_run(c, 1, &r, positive_zero_loop, &dt)) {
    tensor_release(r);
    return NULL;
  }
  if (out) {
    int rc = tensor_assign(c, out, r);
    tensor_release(r);
    return rc ? NULL : tensor_retain(out);
  }
  return r;
fail:
  for (int i = 0; i < nop; i++) op_release(&list[i]);
  ctx_free(c, list, ob);
  return NULL;
}
