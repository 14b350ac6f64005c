// cxx.cc -- a C++ host: tsr.h compiles as C++ (extern "C") and works from C++ code, with a
// host function given as a captureless lambda.  Prints "unit cxx: N passed, N failed".
#include <tsr.h>
#include <cstdio>
#include <cstring>
#include <vector>

static int passed, failed;
#define CHECK(c) do { if (c) passed++; else { failed++; std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); } } while (0)

int main() {
  tsr_State *S = tsr_open(nullptr);
  CHECK(S != nullptr);
  if (!S) return 1;
  std::vector<float> v = {1.5f, 2.5f, 3.5f, 4.5f};
  int64_t shape[2] = {2, 2};
  tsr_Tensor *t = tsr_tensor_wrap(S, TSR_FLOAT32, 2, shape, nullptr, v.data(),
                                  v.size() * sizeof(float), 0, nullptr, nullptr);
  CHECK(t != nullptr && tsr_set(S, "v", t) == TSR_OK);
  tsr_tensor_release(t);
  tsr_CFunction twice = [](tsr_Call *call, void *) -> tsr_Status {
    tsr_Tensor *a = tsr_arg(call, 0);
    if (!a) return tsr_raise(call, TSR_ERR_TYPE, "twice() needs an array");
    double x = 0;
    tsr_tensor_copy_to(a, TSR_FLOAT64, &x, sizeof x);
    tsr_Tensor *r = tsr_tensor_new(tsr_call_state(call), TSR_FLOAT64, 0, nullptr);
    tsr_TensorInfo in;
    if (!r || tsr_tensor_info(r, &in) != TSR_OK) return TSR_ERR_MEMORY;
    *static_cast<double *>(in.data) = 2 * x;
    return tsr_return(call, r);
  };
  CHECK(tsr_register(S, "twice", twice, nullptr) == TSR_OK);
  tsr_Tensor *r = nullptr;
  CHECK(tsr_eval(S, "v *= 2\ntwice(v.sum())", "cxx", &r) == TSR_OK);
  double d = 0;
  CHECK(r && tsr_tensor_copy_to(r, TSR_FLOAT64, &d, sizeof d) == TSR_OK && d == 48.0);
  CHECK(v[3] == 9.0f);
  tsr_tensor_release(r);
  CHECK(tsr_eval(S, "twice('x')", "cxx", nullptr) == TSR_ERR_TYPE);
  CHECK(std::strcmp(tsr_last_error(S)->kind, "TypeError") == 0);
  tsr_close(S);
  std::printf("unit cxx: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
