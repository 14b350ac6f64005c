/*
** test_repl.c -- drives the real `tsr` REPL (BUILD/tsr, next to this test's folder) through a
** pseudo-terminal, as a person at a keyboard would: multi-line def, an error and then state
** intact, pasting several lines at once, tab completion of names, namespace members and
** methods, Ctrl-C interrupting a long loop and clearing the line, `_`, %whos, Ctrl-D, and the
** history file (~/.tsr_history under a temporary HOME) read back by a second session with
** the Up arrow and Ctrl-R.
*/
#define _XOPEN_SOURCE 700
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char tsr_path[4096];
static char home[256];
static int timeout_ms = 15000;

typedef struct {
  pid_t pid;
  int fd;
  char out[1 << 17];
  size_t n, seen;          /* bytes read, and how far expect() has matched */
} Session;

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {}
}

static long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Reads what the REPL wrote for up to ms milliseconds (returns early at end of output). */
static int pump(Session *s, int ms) {
  struct pollfd p = {s->fd, POLLIN, 0};
  int r = poll(&p, 1, ms);
  if (r <= 0) return r;
  if (s->n + 1 >= sizeof s->out) return -1;
  ssize_t k = read(s->fd, s->out + s->n, sizeof s->out - s->n - 1);
  if (k <= 0) return -1;
  s->n += (size_t)k;
  s->out[s->n] = 0;
  return 1;
}

/* Waits until needle appears in the output after what earlier expects matched. */
static int expect(Session *s, const char *needle) {
  long end = now_ms() + timeout_ms;
  for (;;) {
    char *hit = strstr(s->out + s->seen, needle);
    if (hit) {
      s->seen = (size_t)(hit - s->out) + strlen(needle);
      return 1;
    }
    long left = end - now_ms();
    if (left <= 0 || pump(s, (int)(left < 100 ? left : 100)) < 0) {
      if (strstr(s->out + s->seen, needle)) continue;
      fprintf(stderr, "test_repl: did not see [%s]; output after the last match:\n%s\n", needle,
              s->out + s->seen);
      return 0;
    }
  }
}

static void send_keys(Session *s, const char *keys) {
  size_t n = strlen(keys);
  while (n > 0) {
    ssize_t k = write(s->fd, keys, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return;
    keys += k;
    n -= (size_t)k;
  }
}

/* Waits for the next primary prompt, so that keys go to libedit and not to the terminal's
   cooked mode (where Ctrl-R would be the tty's reprint character). */
static int prompt(Session *s) {
  int ok = expect(s, ">>> ");
  sleep_ms(50);
  return ok;
}

/* Starts BUILD/tsr on a new pseudo-terminal with HOME set to the temporary folder. */
static int start(Session *s) {
  memset(s, 0, sizeof *s);
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0) return 0;
  char *slave_name = ptsname(master);
  if (!slave_name) return 0;
  pid_t pid = fork();
  if (pid < 0) return 0;
  if (pid == 0) {
    setsid();
    int slave = open(slave_name, O_RDWR);
    if (slave < 0) _exit(127);
    dup2(slave, 0); dup2(slave, 1); dup2(slave, 2);
    if (slave > 2) close(slave);
    close(master);
    setenv("HOME", home, 1);
    setenv("TERM", "xterm", 1);
    char supp[512];     /* under LeakSanitizer, only libedit's own strings may stay */
    snprintf(supp, sizeof supp, "suppressions=%s/lsan.supp:print_suppressions=0", home);
    setenv("LSAN_OPTIONS", supp, 1);
    execl(tsr_path, "tsr", (char *)NULL);
    _exit(127);
  }
  s->pid = pid;
  s->fd = master;
  return expect(s, ">>> ");
}

/* Ends the session with Ctrl-D; returns the exit status (-1 if it had to be killed). */
static int prompt(Session *s);

/* Ends the session with Ctrl-D, sent once the REPL waits at its prompt (a key sent while a
   statement still runs reaches the terminal in cooked mode, not libedit). */
static int finish(Session *s) {
  prompt(s);
  send_keys(s, "\x04");
  long end = now_ms() + timeout_ms;
  int status = 0;
  for (;;) {
    pid_t r = waitpid(s->pid, &status, WNOHANG);
    if (r == s->pid) break;
    if (now_ms() > end) {
      kill(s->pid, SIGKILL);
      waitpid(s->pid, &status, 0);
      close(s->fd);
      return -1;
    }
    pump(s, 50);
  }
  close(s->fd);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void first_session(void) {
  static Session s;
  CHECK(start(&s));
  /* a tensor echoes its repr; a real 0-d array is not a scalar */
  send_keys(&s, "x = arange(6).reshape(2, 3)\r");
  send_keys(&s, "x * 10\r");
  CHECK(expect(&s, "array([[ 0, 10, 20],\r\n       [30, 40, 50]])"));
  send_keys(&s, "array(7) + 0, array(7)\r");
  CHECK(expect(&s, "(7, array(7))"));
  /* a multi-line def, ended by a blank line */
  send_keys(&s, "def triple(a):\r");
  CHECK(expect(&s, "... "));
  send_keys(&s, "    return a * 3\r");
  send_keys(&s, "\r");
  send_keys(&s, "triple(arange(4) + 11)\r");
  CHECK(expect(&s, "array([33, 36, 39, 42])"));
  /* an error, then the state is intact */
  send_keys(&s, "x @ ones(5)\r");
  CHECK(expect(&s, "ValueError: matmul"));
  send_keys(&s, "x.sum() + triple(1000)\r");
  CHECK(expect(&s, "3015"));
  /* several lines pasted at once */
  send_keys(&s, "pa = 100\rpb = 20\rpa + pb + 3\r");
  CHECK(expect(&s, "123"));
  /* `_` is the last echoed value */
  send_keys(&s, "_ * 2\r");
  CHECK(expect(&s, "246"));
  /* completion: a variable name, a namespace member, a method */
  CHECK(prompt(&s));
  send_keys(&s, "my_long_variable = 4100\r");
  CHECK(prompt(&s));
  send_keys(&s, "my_long_v\t + 7\r");
  CHECK(expect(&s, "4107"));
  CHECK(prompt(&s));
  send_keys(&s, "linalg.no\t(ones(4) * 2.5)\r");
  CHECK(expect(&s, "5.0"));
  CHECK(prompt(&s));
  send_keys(&s, "x.resh\t(3, 2).shape\r");
  CHECK(expect(&s, "(3, 2)"));
  CHECK(prompt(&s));
  send_keys(&s, "3 if Tr\t else 4, 100 + 17\r");   /* a keyword */
  CHECK(expect(&s, "(3, 117)"));
  /* Ctrl-C interrupts a long loop and keeps the variables */
  send_keys(&s, "i = 0\r");
  send_keys(&s, "while True:\r");
  send_keys(&s, "    i = i + 1\r");
  send_keys(&s, "    if i == 1000: print('loop' + ' running')\r");
  send_keys(&s, "\r");
  CHECK(expect(&s, "loop running"));
  sleep_ms(100);
  send_keys(&s, "\x03");
  CHECK(expect(&s, "KeyboardInterrupt"));
  CHECK(expect(&s, ">>> "));
  send_keys(&s, "i > 0, pa\r");
  CHECK(expect(&s, "(True, 100)"));
  /* Ctrl-C at the prompt clears the line */
  CHECK(prompt(&s));
  send_keys(&s, "pa + 999");
  sleep_ms(100);
  send_keys(&s, "\x03");
  CHECK(expect(&s, "KeyboardInterrupt"));
  send_keys(&s, "pa + 5\r");
  CHECK(expect(&s, "105"));
  /* %whos lists the variables */
  send_keys(&s, "%whos\r");
  CHECK(expect(&s, "my_long_variable"));
  CHECK(expect(&s, "2x3: 6 elems, type `int64`, 48 bytes"));
  send_keys(&s, "12345 * 2\r");
  CHECK(expect(&s, "24690"));
  CHECK(finish(&s) == 0);
}

static void second_session(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/.tsr_history", home);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (f) {
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECK(strstr(buf, "my_long_variable") != NULL);
    CHECK(strstr(buf, "triple") != NULL);
  }
  static Session s;
  CHECK(start(&s));
  /* Up arrow recalls the last line of the previous session */
  send_keys(&s, "\x1b[A\r");
  CHECK(expect(&s, "24690"));
  /* Ctrl-R searches the history */
  CHECK(prompt(&s));
  send_keys(&s, "\x12" "pb = ");
  sleep_ms(200);
  send_keys(&s, "\r");
  send_keys(&s, "pb + 1\r");
  CHECK(expect(&s, "21"));
  CHECK(finish(&s) == 0);
}

int main(int argc, char **argv) {
  (void)argc;
  char self[4096];
  snprintf(self, sizeof self, "%s", argv[0]);
  snprintf(tsr_path, sizeof tsr_path, "%s/../tsr", dirname(self));
  if (getenv("TSR_TEST_TIMEOUT")) timeout_ms = atoi(getenv("TSR_TEST_TIMEOUT")) * 1000;
  if (access(tsr_path, X_OK) != 0) {
    fprintf(stderr, "test_repl: %s not built\n", tsr_path);
    CHECK(0);
    return CHECK_DONE("repl");
  }
  snprintf(home, sizeof home, "%s/tsr-repl-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(home)) { CHECK(0); return CHECK_DONE("repl"); }
  signal(SIGPIPE, SIG_IGN);
  char supp_path[512];
  snprintf(supp_path, sizeof supp_path, "%s/lsan.supp", home);
  FILE *supp = fopen(supp_path, "w");
  if (supp) { fputs("leak:wcsdup\nleak:libedit\n", supp); fclose(supp); }
  first_session();
  second_session();
  char path[512];
  snprintf(path, sizeof path, "%s/.tsr_history", home);
  unlink(path);
  unlink(supp_path);
  rmdir(home);
  return CHECK_DONE("repl");
}
