/*
** main.c -- the `tsr` command: runs a script file, a -c string or standard input, or (when
** standard input is a terminal) an interactive REPL with libedit line editing, history in
** ~/.tsr_history and tab completion.  Like Lua's lua.c it is just another host of libtsr: it
** includes only the public header.
*/
#include "tsr.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <histedit.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
  "usage: tsr [FILE.tsr [ARGS...] | -c CODE | -]\n"
  "\n"
  "Runs a tsr program: a NumPy-flavoured subset of Python evaluated by libtsr.\n"
  "  tsr FILE.tsr     run a script file (a syntax error anywhere means nothing runs)\n"
  "  tsr -c CODE      run CODE given on the command line\n"
  "  tsr -            run the program read from standard input\n"
  "  tsr              start the interactive REPL if standard input is a terminal,\n"
  "                   else run standard input as a program\n"
  "  tsr --version    print the library version\n"
  "  tsr --help       print this text\n"
  "\n"
  "The exit status is 0 on success, 1 after an error (its message goes to stderr),\n"
  "2 for a usage error.  The REPL keeps its history in ~/.tsr_history; Ctrl-C stops\n"
  "a running statement or clears the line, Ctrl-D exits.\n";

/* ---- shared helpers ------------------------------------------------------------------------ */

/* The state the SIGINT handler interrupts, and whether an evaluation is running. */
static tsr_State *volatile interrupt_state;
static volatile sig_atomic_t evaluating;
static volatile sig_atomic_t sigint_seen;

static void on_sigint(int sig) {
  (void)sig;
  sigint_seen = 1;
  if (evaluating && interrupt_state) tsr_interrupt(interrupt_state);
}

/* Installs on_sigint without SA_RESTART, so a Ctrl-C at the prompt interrupts the read. */
static void install_sigint(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, NULL);
}

/* Prints the last error of S to stderr, ending it with a newline. */
static void report_error(tsr_State *S) {
  const char *msg = tsr_error_message(S);
  size_t n = strlen(msg);
  fflush(stdout);
  if (n == 0) {
    const tsr_Error *e = tsr_last_error(S);
    fprintf(stderr, "%s: %s\n", e && e->kind ? e->kind : "Error",
            e && e->message ? e->message : "unknown error");
  } else {
    fputs(msg, stderr);
    if (msg[n - 1] != '\n') fputc('\n', stderr);
  }
  fflush(stderr);
}

/* Reads all of f into a NUL-terminated malloc'd buffer; NULL on failure. */
static char *read_all(FILE *f) {
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  if (!buf) return NULL;
  for (;;) {
    if (cap - len < 2) {
      char *grown = realloc(buf, cap * 2);
      if (!grown) { free(buf); return NULL; }
      buf = grown;
      cap *= 2;
    }
    size_t got = fread(buf + len, 1, cap - len - 1, f);
    len += got;
    if (got == 0) break;
  }
  if (ferror(f)) { free(buf); return NULL; }
  buf[len] = '\0';
  return buf;
}

/* Runs src as a whole program; returns the process exit status. */
static int run_source(tsr_State *S, const char *src, const char *chunk) {
  interrupt_state = S;
  evaluating = 1;
  tsr_Status st = tsr_eval(S, src, chunk, NULL);
  evaluating = 0;
  fflush(stdout);
  if (st != TSR_OK) { report_error(S); return 1; }
  return 0;
}

static int run_file(tsr_State *S, const char *path) {
  interrupt_state = S;
  evaluating = 1;
  tsr_Status st = tsr_eval_file(S, path);
  evaluating = 0;
  fflush(stdout);
  if (st != TSR_OK) { report_error(S); return 1; }
  return 0;
}

/* ---- the REPL ------------------------------------------------------------------------------ */

/* A growable string. */
typedef struct { char *s; size_t len, cap; } Buf;

static int buf_add(Buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) cap *= 2;
    char *grown = realloc(b->s, cap);
    if (!grown) return 0;
    b->s = grown;
    b->cap = cap;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
  return 1;
}

/* True if line is empty or only whitespace. */
static int is_blank(const char *line) {
  for (; *line; line++)
    if (*line != ' ' && *line != '\t' && *line != '\n' && *line != '\r') return 0;
  return 1;
}

/* True if line, without its comment and trailing blanks, ends with ':' -- the header of a
   compound statement, after which the REPL reads until a blank line, as Python's does. */
static int opens_block(const char *line) {
  char quote = 0, last = 0;
  for (const char *p = line; *p && *p != '\n'; p++) {
    if (quote) {
      if (*p == '\\' && p[1]) p++;
      else if (*p == quote) quote = 0;
      last = 'x';
    } else if (*p == '#') {
      break;
    } else if (*p == '\'' || *p == '"') {
      quote = *p;
      last = 'x';
    } else if (*p != ' ' && *p != '\t' && *p != '\r') {
      last = *p;
    }
  }
  return last == ':';
}

/* Is line the IPython magic command `name` ("%whos"), blanks around it allowed? */
static int is_magic(const char *line, const char *name) {
  while (*line == ' ' || *line == '\t') line++;
  size_t n = strlen(name);
  if (strncmp(line, name, n) != 0) return 0;
  return is_blank(line + n);
}

static const char *current_prompt = ">>> ";

static char *prompt_fn(EditLine *el) {
  (void)el;
  return (char *)current_prompt;
}

/* Completion: the candidates tsr_complete offers for the word before the cursor. */
typedef struct { char **items; size_t n, cap; } Candidates;

static void collect(void *ud, const char *candidate) {
  Candidates *c = ud;
  if (c->n == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 32;
    char **grown = realloc(c->items, cap * sizeof *grown);
    if (!grown) return;
    c->items = grown;
    c->cap = cap;
  }
  char *copy = strdup(candidate);
  if (copy) c->items[c->n++] = copy;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_word_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '_';
}

/* The part of candidate still to type after the word: candidates may be given whole
   ("np.arange") or as the last name only ("arange"). */
static const char *completion_rest(const char *candidate, const char *dotted, size_t dotted_len,
                                   const char *word, size_t word_len) {
  if (strncmp(candidate, dotted, dotted_len) == 0) return candidate + dotted_len;
  if (strncmp(candidate, word, word_len) == 0) return candidate + word_len;
  return NULL;
}

static tsr_State *complete_state;

/* The statement and expression keywords of the language, offered by completion too. */
static const char *const keywords[] = {
  "and", "break", "continue", "def", "elif", "else", "False", "for", "from", "global", "if",
  "import", "in", "is", "None", "not", "or", "pass", "return", "True", "while", NULL};

/* libedit, opened with dlopen when the REPL starts: running a script or `-c` never loads it
   (it and its dependencies cost about a millisecond of start-up).  Without it the REPL reads
   lines with stdio. */
static struct {
  EditLine *(*el_init)(const char *, FILE *, FILE *, FILE *);
  void (*el_end)(EditLine *);
  void (*el_reset)(EditLine *);
  const char *(*el_gets)(EditLine *, int *);
  int (*el_set)(EditLine *, int, ...);
  int (*el_source)(EditLine *, const char *);
  const LineInfo *(*el_line)(EditLine *);
  int (*el_insertstr)(EditLine *, const char *);
  History *(*history_init)(void);
  void (*history_end)(History *);
  int (*history)(History *, HistEvent *, int, ...);
} edit;

/* Loads libedit and its functions once; false when it is not there. */
static bool edit_load(void) {
  static int state;   /* 0 not tried, 1 loaded, -1 unavailable */
  if (state) return state > 0;
  state = -1;
  void *h = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!h) h = dlopen("libedit.so", RTLD_NOW | RTLD_LOCAL);
  if (!h) return false;
#define EDIT_SYM(name) if (!(*(void **)&edit.name = dlsym(h, #name))) { dlclose(h); return false; }
  EDIT_SYM(el_init) EDIT_SYM(el_end) EDIT_SYM(el_reset) EDIT_SYM(el_gets) EDIT_SYM(el_set)
  EDIT_SYM(el_source) EDIT_SYM(el_line) EDIT_SYM(el_insertstr) EDIT_SYM(history_init)
  EDIT_SYM(history_end) EDIT_SYM(history)
#undef EDIT_SYM
  state = 1;
  return true;
}

static unsigned char complete_fn(EditLine *el, int ch) {
  (void)ch;
  const LineInfo *li = edit.el_line(el);
  size_t cursor = (size_t)(li->cursor - li->buffer);
  char *line = strndup(li->buffer, (size_t)(li->lastchar - li->buffer));
  if (!line) return CC_ERROR;
  size_t word_start = cursor, dotted_start;
  while (word_start > 0 && is_word_char(line[word_start - 1])) word_start--;
  dotted_start = word_start;
  while (dotted_start > 0 && (is_word_char(line[dotted_start - 1]) || line[dotted_start - 1] == '.'))
    dotted_start--;
  const char *word = line + word_start, *dotted = line + dotted_start;
  size_t word_len = cursor - word_start, dotted_len = cursor - dotted_start;

  Candidates c = {0};
  unsigned char result = CC_ERROR;
  tsr_Status st = tsr_complete(complete_state, line, cursor, collect, &c);
  if (dotted_start == word_start && word_len > 0)   /* a plain word may be a keyword */
    for (int k = 0; keywords[k]; k++)
      if (strncmp(keywords[k], word, word_len) == 0) collect(&c, keywords[k]);
  if (st == TSR_OK && c.n > 0) {
    const char *first = NULL;
    size_t common = 0, usable = 0;
    for (size_t i = 0; i < c.n; i++) {
      const char *rest = completion_rest(c.items[i], dotted, dotted_len, word, word_len);
      if (!rest) continue;
      if (!first) { first = rest; common = strlen(rest); }
      else {
        size_t k = 0;
        while (k < common && rest[k] == first[k]) k++;
        common = k;
      }
      usable++;
    }
    if (usable == 1) {
      char *ins = strndup(first, common);
      if (ins && edit.el_insertstr(el, ins) == 0) result = CC_REFRESH;
      free(ins);
    } else if (usable > 1 && common > 0) {
      char *ins = strndup(first, common);
      if (ins && edit.el_insertstr(el, ins) == 0) result = CC_REFRESH;
      free(ins);
    } else if (usable > 1) {
      qsort(c.items, c.n, sizeof *c.items, compare_names);
      size_t width = 0;
      for (size_t i = 0; i < c.n; i++)
        if (strlen(c.items[i]) > width) width = strlen(c.items[i]);
      size_t per_line = 78 / (width + 2);
      if (per_line == 0) per_line = 1;
      fputc('\n', stdout);
      for (size_t i = 0; i < c.n; i++)
        printf("%-*s%s", (int)(width + 2), c.items[i],
               (i + 1) % per_line == 0 || i + 1 == c.n ? "\n" : "");
      fflush(stdout);
      result = CC_REDISPLAY;
    }
  }
  for (size_t i = 0; i < c.n; i++) free(c.items[i]);
  free(c.items);
  free(line);
  return result;
}

/* The line reader: libedit on a terminal, else stdio (when libedit cannot start). */
typedef struct {
  EditLine *el;
  History *hist;
  char history_path[4096];
} Reader;

/* Reads one line with prompt.  Returns a malloc'd line ending in '\n' (NULL at end of input);
   *interrupted is set when Ctrl-C cancelled the line. */
static char *read_line(Reader *r, const char *prompt, int *interrupted) {
  *interrupted = 0;
  sigint_seen = 0;
  current_prompt = prompt;
  if (r->el) {
    int count = 0;
    errno = 0;
    const char *line = edit.el_gets(r->el, &count);
    if (sigint_seen || (!line && count < 0 && errno == EINTR)) {
      *interrupted = 1;
      edit.el_reset(r->el);
      return NULL;
    }
    if (!line || count <= 0) return NULL;
    size_t n = strlen(line);
    char *copy = malloc(n + 2);
    if (!copy) return NULL;
    memcpy(copy, line, n + 1);
    if (n == 0 || copy[n - 1] != '\n') { copy[n] = '\n'; copy[n + 1] = '\0'; }
    return copy;
  }
  fputs(prompt, stdout);
  fflush(stdout);
  char buf[4096];
  Buf b = {0};
  for (;;) {
    if (!fgets(buf, sizeof buf, stdin)) {
      if (sigint_seen) { clearerr(stdin); *interrupted = 1; free(b.s); return NULL; }
      if (b.len) break;
      free(b.s);
      return NULL;
    }
    if (!buf_add(&b, buf, strlen(buf))) { free(b.s); return NULL; }
    if (b.s[b.len - 1] == '\n') break;
  }
  if (b.s[b.len - 1] != '\n') buf_add(&b, "\n", 1);
  return b.s;
}

static void reader_open(Reader *r, const char *argv0) {
  memset(r, 0, sizeof *r);
  const char *home = getenv("HOME");
  if (home && *home) snprintf(r->history_path, sizeof r->history_path, "%s/.tsr_history", home);
  if (!edit_load()) return;
  r->el = edit.el_init(argv0, stdin, stdout, stderr);
  if (!r->el) return;
  HistEvent ev;
  r->hist = edit.history_init();
  if (r->hist) {
    edit.history(r->hist, &ev, H_SETSIZE, 1000);
    edit.history(r->hist, &ev, H_SETUNIQUE, 1);
    if (r->history_path[0]) edit.history(r->hist, &ev, H_LOAD, r->history_path);
    edit.el_set(r->el, EL_HIST, edit.history, r->hist);
  }
  edit.el_set(r->el, EL_EDITOR, "emacs");
  edit.el_set(r->el, EL_SIGNAL, 0);
  edit.el_set(r->el, EL_PROMPT, prompt_fn);
  edit.el_set(r->el, EL_ADDFN, "tsr-complete", "complete a name", complete_fn);
  edit.el_set(r->el, EL_BIND, "^I", "tsr-complete", NULL);
  edit.el_set(r->el, EL_BIND, "^R", "em-inc-search-prev", NULL);   /* as readline's Ctrl-R */
  edit.el_source(r->el, NULL);
}

static void reader_remember(Reader *r, const char *line) {
  if (!r->hist || is_blank(line)) return;
  HistEvent ev;
  size_t n = strlen(line);
  char *copy = strndup(line, n && line[n - 1] == '\n' ? n - 1 : n);
  if (!copy) return;
  edit.history(r->hist, &ev, H_ENTER, copy);
  free(copy);
}

static void reader_close(Reader *r) {
  HistEvent ev;
  if (r->hist && r->history_path[0]) edit.history(r->hist, &ev, H_SAVE, r->history_path);
  if (r->el) edit.el_end(r->el);
  if (r->hist) edit.history_end(r->hist);
}

/* The interactive loop: gathers one complete input (more lines while tsr_check says
   TSR_INCOMPLETE; after a block header, until a blank line), evaluates it with
   tsr_eval_interactive, reports errors and keeps going.  Returns at end of input. */
static int repl(tsr_State *S, const char *argv0) {
  Reader r;
  reader_open(&r, argv0);
  complete_state = S;
  interrupt_state = S;
  printf("tsr %s -- NumPy-style tensor programs.  Ctrl-D exits.\n", tsr_version());
  Buf input = {0};
  int block = 0;
  for (;;) {
    int interrupted = 0;
    char *line = read_line(&r, input.len ? "... " : ">>> ", &interrupted);
    if (interrupted) {
      fputs("\nKeyboardInterrupt\n", stdout);
      fflush(stdout);
      input.len = 0;
      block = 0;
      continue;
    }
    if (!line) {
      fputc('\n', stdout);
      break;
    }
    reader_remember(&r, line);
    if (input.len == 0) {
      if (is_blank(line)) { free(line); continue; }
      if (is_magic(line, "%whos")) { free(line); line = strdup("whos()\n"); if (!line) continue; }
      block = opens_block(line);
    }
    int ok = buf_add(&input, line, strlen(line));
    int blank = is_blank(line);
    free(line);
    if (!ok) { fputs("tsr: out of memory\n", stderr); input.len = 0; continue; }
    /* More lines while the source is unfinished (an open bracket, a block header); after a
       block header, until a blank line, as Python's REPL.  A syntax error is reported at once. */
    tsr_Status st = tsr_check(S, input.s);
    if (block ? (!blank && st != TSR_ERR_SYNTAX) : st == TSR_INCOMPLETE) continue;
    evaluating = 1;
    st = tsr_eval_interactive(S, input.s, "<stdin>");
    evaluating = 0;
    fflush(stdout);
    if (st == TSR_ERR_INTERRUPT) {   /* as Python's REPL: just the exception's name */
      fputs("\nKeyboardInterrupt\n", stderr);   /* after the terminal's "^C" */
      fflush(stderr);
    } else if (st != TSR_OK) {
      report_error(S);
    }
    input.len = 0;
    block = 0;
  }
  free(input.s);
  reader_close(&r);
  return 0;
}

/* ---- main ---------------------------------------------------------------------------------- */

int main(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "--version") == 0) {
    printf("tsr %s\n", tsr_version());
    return 0;
  }
  if (argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0' && strcmp(argv[1], "-c") != 0) {
    fprintf(stderr, "tsr: unknown option %s\n%s", argv[1], usage_text);
    return 2;
  }
  if (argc > 1 && strcmp(argv[1], "-c") == 0 && argc < 3) {
    fprintf(stderr, "tsr: -c needs an argument\n");
    return 2;
  }

  tsr_State *S = tsr_open(NULL);
  if (!S) {
    fputs("tsr: out of memory\n", stderr);
    return 1;
  }
  install_sigint();

  int status;
  if (argc > 1 && strcmp(argv[1], "-c") == 0) {
    const char *code = argv[2];
    argv[2] = argv[1];   /* sys.argv is ['-c', ARGS...], as Python's */
    if (tsr_set_argv(S, argc - 2, (const char *const *)argv + 2) != TSR_OK) {
      fputs("tsr: out of memory\n", stderr);
      tsr_close(S);
      return 1;
    }
    status = run_source(S, code, "<string>");
  } else if (argc > 1 && strcmp(argv[1], "-") != 0) {
    if (tsr_set_argv(S, argc - 1, (const char *const *)argv + 1) != TSR_OK) {
      fputs("tsr: out of memory\n", stderr);
      tsr_close(S);
      return 1;
    }
    status = run_file(S, argv[1]);
  } else if (argc == 1 && isatty(STDIN_FILENO)) {
    status = repl(S, argv[0]);
  } else {
    char *src = read_all(stdin);
    if (!src) {
      fputs("tsr: cannot read standard input\n", stderr);
      status = 1;
    } else {
      status = run_source(S, src, "<stdin>");
      free(src);
    }
  }
  tsr_close(S);
  return status;
}
