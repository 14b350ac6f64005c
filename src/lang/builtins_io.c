/*
** builtins_io.c -- NumPy's file functions: save, load (.npy, memory-mapped .npy, .npz),
** savez, savez_compressed, loadtxt, savetxt, and tsr's load_idx.
**
** Each binds its arguments under NumPy's names and forwards to the runtime (npy.h, rt.h), whose
** file access goes through io.c's one gate (refused under TSR_SANDBOX).
*/
#include "builtins.h"
#include "interp.h"
#include "../runtime/npy.h"

#include <string.h>

/* The path argument of a file function (a str; NumPy also takes file objects). */
static int get_path(Interp *I, Value v, const char **out) {
  if (v.type != V_STR)
    return IERR_TYPE(I, "expected str, bytes or os.PathLike object, not %s", value_type_name(v));
  *out = as_str(v)->s;
  return 0;
}

/* path with suffix appended unless it already ends with it (numpy.save's ".npy", savez's
   ".npz"), in b. */
static const char *with_suffix(Buf *b, const char *path, const char *suffix) {
  size_t n = strlen(path), k = strlen(suffix);
  buf_puts(b, path);
  if (n < k || strcmp(path + n - k, suffix) != 0) buf_puts(b, suffix);
  return b->failed ? NULL : buf_str(b);
}

/* An optional str option: def when omitted, NULL for None (when none_ok). */
static int get_str(Interp *I, const char *name, Value v, const char *def, bool none_ok,
                   const char **out) {
  if (v.type == V_UNDEF) { *out = def; return 0; }
  if (v.type == V_NONE && none_ok) { *out = NULL; return 0; }
  if (v.type != V_STR)
    return IERR_TYPE(I, "%s must be a str, not %s", name, value_type_name(v));
  *out = as_str(v)->s;
  return 0;
}

/* --------------------------------------------------------------------------------------------
** save / load
*/

/* save(file, arr, allow_pickle=True, fix_imports=True): numpy.save. */
static int bi_save(Interp *I, const Args *a, Value *out) {
  Value s[4];
  const char *path = NULL;
  if (args_parse(I, a, "save", "file,arr,allow_pickle=,fix_imports=", s) ||
      get_path(I, s[0], &path))
    return -1;
  Tensor *t = arg_tensor(I, s[1]);
  if (!t) return -1;
  Buf b;
  buf_init(&b, interp_ctx(I));
  const char *full = with_suffix(&b, path, ".npy");
  int rc = full ? npy_save(interp_ctx(I), full, t) : -1;
  buf_free(&b);
  tensor_release(t);
  if (rc) return -1;
  *out = v_none();
  return 0;
}

/* The namespace load returns for an .npz archive: members NAME -> array, and `files`, the
   list of names (as NpzFile.files), unless an array is itself called "files".  Takes the
   arrays out of m. */
static int npz_namespace(Interp *I, NpyMembers *m, Value *out) {
  Ctx *c = interp_ctx(I);
  Dict *d = dict_new(c);
  if (!d) return -1;
  Value files = value_list(I, 0);
  if (files.type == V_UNDEF) { dict_free(d); return -1; }
  bool named_files = false;
  for (int i = 0; i < m->n; i++) {
    Tensor *t = m->arrays[i];
    m->arrays[i] = NULL;
    if (strcmp(m->names[i], "files") == 0) named_files = true;
    if (dict_set(d, m->names[i], v_tensor(t)) < 0) goto fail;
    Value name = value_str(I, m->names[i], strlen(m->names[i]));
    if (name.type == V_UNDEF || list_append(I, files, name) < 0) goto fail;
  }
  if (named_files) value_decref(files);
  else if (dict_set(d, "files", files) < 0) { files = v_undef(); goto fail; }
  Namespace *ns = ctx_calloc(c, sizeof(Namespace));
  if (!ns) { dict_free(d); return -1; }
  ns->h.refcnt = 1;
  ns->h.ctx = c;
  ns->h.size = sizeof(Namespace);
  ns->h.type = V_NAMESPACE;
  ns->name = "NpzFile";
  ns->members = d;
  out->type = V_NAMESPACE;
  out->o = &ns->h;
  return 0;
fail:
  value_decref(files);
  dict_free(d);
  return -1;
}

/* load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding='ASCII'):
   numpy.load of an .npy file (a tensor; mapped when mmap_mode is 'r', 'r+' or 'c') or an
   .npz archive (a namespace of its arrays). */
static int bi_load(Interp *I, const Args *a, Value *out) {
  Value s[6];
  const char *path = NULL;
  if (args_parse(I, a, "load", "file,mmap_mode=,allow_pickle=,fix_imports=,encoding=,"
                 "*,max_header_size=", s) || get_path(I, s[0], &path))
    return -1;
  char mode = 0;
  if (given(s[1])) {
    if (s[1].type != V_STR)
      return IERR_TYPE(I, "mmap_mode must be a str or None, not %s", value_type_name(s[1]));
    const char *m = as_str(s[1])->s;
    if (!strcmp(m, "r") || !strcmp(m, "readonly")) mode = 'r';
    else if (!strcmp(m, "r+") || !strcmp(m, "readwrite")) mode = 'w';
    else if (!strcmp(m, "c") || !strcmp(m, "copyonwrite")) mode = 'c';
    else if (!strcmp(m, "w+") || !strcmp(m, "write"))
      return IERR_VALUE(I, "mmap_mode='w+' creates a new file: tsr's load does not support it");
    else
      return IERR_VALUE(I, "mode must be one of ['r', 'c', 'r+', 'w+', 'readonly', "
                        "'copyonwrite', 'readwrite', 'write'] (got '%s')", m);
  }
  Tensor *t;
  NpyMembers m;
  if (npy_load(interp_ctx(I), path, mode, &t, &m)) return -1;
  if (t) return ret_tensor(t, out);
  int rc = npz_namespace(I, &m, out);
  npy_members_free(interp_ctx(I), &m);
  return rc;
}

/* savez(file, *args, **kwds) and savez_compressed: positional arrays are named arr_0, arr_1
   ..., keyword arrays by their keyword. */
static int savez_common(Interp *I, const Args *a, const char *fname, bool compress, Value *out) {
  Ctx *c = interp_ctx(I);
  if (a->npos < 1) {
    for (int k = 0; k < a->nkw; k++)
      if (strcmp(a->kwnames[k], "file") == 0)
        return IERR_TYPE(I, "%s() cannot take 'file' as a keyword here", fname);
    return IERR_TYPE(I, "%s() missing 1 required positional argument: 'file'", fname);
  }
  const char *path = NULL;
  if (get_path(I, a->pos[0], &path)) return -1;
  int n = a->npos - 1 + a->nkw;
  if (n > MAX_ARGS) return IERR_TYPE(I, "%s() takes at most %d arrays", fname, MAX_ARGS);
  char auto_names[MAX_ARGS][24];
  const char *names[MAX_ARGS];
  Tensor *arrays[MAX_ARGS];
  Value vals[MAX_ARGS];
  int rc = -1, made = 0;
  /* NumPy's order: the keyword arrays, then arr_0, arr_1 ... */
  for (int i = 0; i < a->nkw; i++) {
    names[i] = a->kwnames[i];
    vals[i] = a->kw[i];
  }
  for (int i = 1; i < a->npos; i++) {
    int k = a->nkw + i - 1;
    snprintf(auto_names[k], sizeof auto_names[k], "arr_%d", i - 1);
    for (int j = 0; j < a->nkw; j++)
      if (strcmp(a->kwnames[j], auto_names[k]) == 0)
        return IERR_VALUE(I, "Cannot use un-named variables and keyword %s", auto_names[k]);
    names[k] = auto_names[k];
    vals[k] = a->pos[i];
  }
  for (; made < n; made++)
    if (!(arrays[made] = arg_tensor(I, vals[made]))) goto done;
  Buf b;
  buf_init(&b, c);
  const char *full = with_suffix(&b, path, ".npz");
  rc = full ? npy_savez(c, full, n, names, arrays, compress) : -1;
  buf_free(&b);
done:
  for (int i = 0; i < made; i++) tensor_release(arrays[i]);
  if (rc) return -1;
  *out = v_none();
  return 0;
}

static int bi_savez(Interp *I, const Args *a, Value *out) {
  return savez_common(I, a, "savez", false, out);
}

static int bi_savez_compressed(Interp *I, const Args *a, Value *out) {
  return savez_common(I, a, "savez_compressed", true, out);
}

/* --------------------------------------------------------------------------------------------
** Text
*/

/* loadtxt(fname, dtype=float, comments='#', delimiter=None, converters=None, skiprows=0,
   usecols=None, unpack=False, ndmin=0, encoding='bytes', max_rows=None): numpy.loadtxt. */
static int bi_loadtxt(Interp *I, const Args *a, Value *out) {
  Value s[11];
  const char *path = NULL;
  if (args_parse(I, a, "loadtxt", "fname,dtype=,comments=,delimiter=,converters=,skiprows=,"
                 "usecols=,unpack=,ndmin=,encoding=,max_rows=", s) ||
      get_path(I, s[0], &path))
    return -1;
  NpyLoadtxtOptions o = {.dtype = TSR_FLOAT64, .max_rows = -1};
  int dt = -1;
  int64_t usecols[TSR_MAXDIMS * 8], ndmin = 0;
  if (value_to_dtype(I, s[1], &dt)) return -1;
  if (dt >= 0) o.dtype = (DType)dt;
  if (get_str(I, "comments", s[2], "#", true, &o.comments) ||
      get_str(I, "delimiter", s[3], NULL, true, &o.delimiter))
    return -1;
  if (o.delimiter && !*o.delimiter) o.delimiter = NULL;
  if (given(s[4])) return IERR_TYPE(I, "loadtxt(): converters= is not supported by tsr");
  if (given(s[5]) && value_to_int(I, s[5], &o.skiprows)) return -1;
  if (given(s[6])) {
    if (s[6].type == V_TENSOR && s[6].t->ndim == 1) {
      Tensor *u = tensor_contiguous(interp_ctx(I), s[6].t, TSR_INT64);
      if (!u) return -1;
      int64_t n = u->shape[0];
      if (n <= (int64_t)(sizeof usecols / sizeof usecols[0]))
        memcpy(usecols, tensor_data(u), (size_t)n * sizeof(int64_t));
      tensor_release(u);
      if (n > (int64_t)(sizeof usecols / sizeof usecols[0])) return IERR_VALUE(I, "too many usecols");
      o.nusecols = (int)n;
    } else if (s[6].type == V_LIST || s[6].type == V_TUPLE) {
      List *l = as_list(s[6]);
      if (l->n > (int64_t)(sizeof usecols / sizeof usecols[0]))
        return IERR_VALUE(I, "too many usecols");
      for (int64_t i = 0; i < l->n; i++)
        if (value_to_int(I, l->items[i], &usecols[i])) return -1;
      o.nusecols = (int)l->n;
    } else {
      if (value_to_int(I, s[6], &usecols[0])) return -1;
      o.nusecols = 1;
    }
    if (o.nusecols == 0) return IERR_VALUE(I, "usecols must not be empty");
    o.usecols = usecols;
  }
  if (get_bool(I, s[7], false, &o.unpack)) return -1;
  if (given(s[8]) && value_to_int(I, s[8], &ndmin)) return -1;
  if (ndmin < 0 || ndmin > 2) return IERR_VALUE(I, "Illegal value of ndmin keyword: %lld", (long long)ndmin);
  o.ndmin = (int)ndmin;
  if (given(s[10]) && value_to_int(I, s[10], &o.max_rows)) return -1;
  return ret_tensor(npy_loadtxt(interp_ctx(I), path, &o), out);
}

/* savetxt(fname, X, fmt='%.18e', delimiter=' ', newline='\n', header='', footer='',
   comments='# ', encoding=None): numpy.savetxt. */
static int bi_savetxt(Interp *I, const Args *a, Value *out) {
  Value s[9];
  const char *path = NULL, *delimiter = NULL, *newline = NULL, *header = NULL, *footer = NULL,
             *comments = NULL;
  if (args_parse(I, a, "savetxt", "fname,X,fmt=,delimiter=,newline=,header=,footer=,"
                 "comments=,encoding=", s) || get_path(I, s[0], &path) ||
      get_str(I, "delimiter", s[3], " ", false, &delimiter) ||
      get_str(I, "newline", s[4], "\n", false, &newline) ||
      get_str(I, "header", s[5], "", false, &header) ||
      get_str(I, "footer", s[6], "", false, &footer) ||
      get_str(I, "comments", s[7], "# ", false, &comments))
    return -1;
  const char *fmts[TSR_MAXDIMS * 8];
  int nfmt = 1;
  fmts[0] = "%.18e";
  if (s[2].type == V_LIST || s[2].type == V_TUPLE) {
    List *l = as_list(s[2]);
    if (l->n == 0 || l->n > (int64_t)(sizeof fmts / sizeof fmts[0]))
      return IERR_VALUE(I, "invalid fmt: %lld formats", (long long)l->n);
    for (int64_t i = 0; i < l->n; i++) {
      if (l->items[i].type != V_STR) return IERR_TYPE(I, "fmt items must be str");
      fmts[i] = as_str(l->items[i])->s;
    }
    nfmt = (int)l->n;
  } else if (s[2].type == V_STR) {
    fmts[0] = as_str(s[2])->s;
  } else if (s[2].type != V_UNDEF) {
    return IERR_VALUE(I, "invalid fmt: %s", value_type_name(s[2]));
  }
  Tensor *t = arg_tensor(I, s[1]);
  if (!t) return -1;
  if (s[2].type == V_LIST || s[2].type == V_TUPLE) {
    int64_t ncols = t->ndim == 2 ? t->shape[1] : 1;
    if (nfmt != ncols && t->ndim >= 1 && t->ndim <= 2) {
      Buf l;
      buf_init(&l, interp_ctx(I));
      value_repr(I, &l, s[2]);
      ctx_err(interp_ctx(I), TSR_ERR_VALUE, "AttributeError", "fmt has wrong shape.  %s",
              buf_str(&l));
      buf_free(&l);
      tensor_release(t);
      return -1;
    }
  }
  int rc = npy_savetxt(interp_ctx(I), path, t, nfmt, fmts, delimiter, newline, header, footer,
                       comments);
  tensor_release(t);
  if (rc) return -1;
  *out = v_none();
  return 0;
}

/* load_idx(path): tsr extension, an IDX (MNIST) file as a tensor. */
static int bi_load_idx(Interp *I, const Args *a, Value *out) {
  Value s[1];
  const char *path = NULL;
  if (args_parse(I, a, "load_idx", "path", s) || get_path(I, s[0], &path)) return -1;
  return ret_tensor(io_load_idx(interp_ctx(I), path), out);
}

/* --------------------------------------------------------------------------------------------
** The table
*/

const Builtin builtins_io_table[] = {
  {NULL, "save", bi_save, "save(file, arr, allow_pickle=True, fix_imports=True)\n\nSave an "
   "array to a binary file in NumPy .npy format (\".npy\" is appended to a path without it)."},
  {NULL, "load", bi_load, "load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, "
   "encoding='ASCII')\n\nLoad an array from an .npy file (memory-mapped with mmap_mode 'r', "
   "'r+' or 'c'), or the arrays of an .npz file as a namespace (d.a, d['a'], d.files)."},
  {NULL, "savez", bi_savez, "savez(file, *args, **kwds)\n\nSave several arrays into a single "
   "file in uncompressed .npz format (arr_0, arr_1 ... for positional arrays)."},
  {NULL, "savez_compressed", bi_savez_compressed, "savez_compressed(file, *args, **kwds)\n\n"
   "Save several arrays into a single file in compressed .npz format."},
  {NULL, "loadtxt", bi_loadtxt, "loadtxt(fname, dtype=float, comments='#', delimiter=None, "
   "converters=None, skiprows=0, usecols=None, unpack=False, ndmin=0, encoding='bytes', "
   "max_rows=None)\n\nLoad data from a text file (converters are not supported)."},
  {NULL, "savetxt", bi_savetxt, "savetxt(fname, X, fmt='%.18e', delimiter=' ', newline='\\n', "
   "header='', footer='', comments='# ', encoding=None)\n\nSave a 1-d or 2-d array to a text "
   "file."},
  {"builtins", "load_idx", bi_load_idx, "load_idx(path)\n\nRead an IDX file (MNIST format), gzipped "
   "or not, as a tensor of its own dtype (tsr extension)."},
  {NULL, NULL, NULL, NULL}
};
