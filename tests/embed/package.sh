#!/bin/sh
# tests/embed/package.sh BUILD CC -- checks libtsr as a package: the copy installed under
# BUILD/prefix by `make test` (files, soname, pkg-config), the uninstalled BUILD/tsr.pc, the
# public header as C99 and as C++, and that libtsr.so exports only tsr_* symbols.
# Prints "unit package: N passed, N failed" like the C tests.
build=$1 cc=${2:-cc}   # cc may carry flags (the sanitizers)
prefix=$build/prefix
passed=0 failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsr-pkg.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
check() {   # check DESCRIPTION COMMAND...
  what=$1; shift
  if "$@" >"$tmp/out" 2>&1; then passed=$((passed + 1))
  else failed=$((failed + 1)); echo "FAIL: $what" >&2; tail -n 5 "$tmp/out" >&2; fi
}
for f in include/tsr.h lib/libtsr.a lib/libtsr.so lib/libtsr.so.0 lib/pkgconfig/tsr.pc; do
  check "installed $f" test -e "$prefix/$f"
done
check "soname is libtsr.so.0" sh -c "objdump -p '$prefix/lib/libtsr.so' | grep -q 'SONAME *libtsr.so.0\$'"
check "only tsr_* symbols exported" sh -c \
  "nm -D --defined-only '$build/libtsr.so' | awk '{print \$3}' | grep -v '^tsr_' | grep -v '^_init\$\|^_fini\$' | (! grep .)"
check "tsr_open is exported" sh -c "nm -D --defined-only '$build/libtsr.so' | grep -q ' tsr_open\$'"
check "installed pkg-config" sh -c "PKG_CONFIG_PATH='$prefix/lib/pkgconfig' pkg-config --cflags --libs tsr | grep -q -- '-ltsr'"
check "static pkg-config lists the private libs" sh -c \
  "PKG_CONFIG_PATH='$prefix/lib/pkgconfig' pkg-config --static --libs tsr | grep -q -- '-lopenblas'"
cat >"$tmp/host.c" <<'EOC'
#include <tsr.h>
#include <stdio.h>
int main(void) {
  tsr_State *S = tsr_open(NULL);
  tsr_Tensor *r = NULL;
  if (!S || tsr_eval(S, "arange(5).sum()", "pkg", &r) != TSR_OK) return 1;
  long long v = 0;
  if (tsr_tensor_copy_to(r, TSR_INT64, &v, sizeof v) != TSR_OK) return 1;
  tsr_tensor_release(r);
  tsr_close(S);
  printf("%lld\n", v);
  return v == 10 ? 0 : 1;
}
EOC
check "header compiles as C99 -pedantic" \
  $cc -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$prefix/include" "$tmp/host.c"
check "header compiles as C++11" \
  c++ -x c++ -std=c++11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$prefix/include" "$tmp/host.c"
check "uninstalled build/tsr.pc builds and runs a host" sh -c \
  "$cc -o '$tmp/host_uninst' '$tmp/host.c' \$(PKG_CONFIG_PATH='$build' pkg-config --cflags --libs tsr) && '$tmp/host_uninst'"
check "static link through pkg-config --static" sh -c \
  "$cc -o '$tmp/host_static' '$tmp/host.c' -I'$prefix/include' '$prefix/lib/libtsr.a' \$(PKG_CONFIG_PATH='$prefix/lib/pkgconfig' pkg-config --static --libs-only-l tsr | sed 's/-ltsr//') && '$tmp/host_static'"
check "installed libtsr.a defines only tsr_* globals" sh -c \
  "nm -g --defined-only '$prefix/lib/libtsr.a' | awk 'NF == 3 {print \$3}' | grep -v '^tsr_' | (! grep .)"
# a static host with its own functions named like tsr's internals links and runs
cat >"$tmp/clash.c" <<'EOC'
#include <tsr.h>
int reduce(int x) { return x + 1; }
void buf_init(void) {}
int dict_new = 3;
int main(void) {
  tsr_State *S = tsr_open(NULL);
  tsr_Tensor *r = NULL;
  long long v = 0;
  if (!S || tsr_eval(S, "sum(arange(4))", "clash", &r) != TSR_OK ||
      tsr_tensor_copy_to(r, TSR_INT64, &v, sizeof v) != TSR_OK) return 1;
  tsr_tensor_release(r);
  tsr_close(S);
  buf_init();
  return v == 6 && reduce(dict_new) == 4 ? 0 : 1;
}
EOC
check "static host with clashing names links" sh -c \
  "$cc -o '$tmp/clash' '$tmp/clash.c' -I'$prefix/include' '$prefix/lib/libtsr.a' \$(PKG_CONFIG_PATH='$prefix/lib/pkgconfig' pkg-config --static --libs-only-l tsr | sed 's/-ltsr//') && '$tmp/clash'"
echo "unit package: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
