// native/cuda/probe_gemm.cu — GEMM throughput: cuBLASLt for each precision the GPU supports,
// and a hand-written WMMA tensor-core kernel set next to cuBLAS BF16.
//
// Every GEMM is D = op(A)·B in column-major storage with op(A) = A^T ("TN"): A is stored k×m
// (lda = k), B k×n (ldb = k), D m×n (ldd = m). TN is the layout cuBLASLt requires for FP8 and
// INT8, and is used for every precision so all rows are comparable (PyTorch's `a @ b.t()` on
// row-major tensors is the same call). FLOP per GEMM = 2·m·n·k.
//
// [SECTION] cuBLASLt errors and the precision table
// [SECTION] Random fill and host conversion
// [SECTION] cuBLASLt matmul wrapper
// [SECTION] Host reference check
// [SECTION] WMMA kernel
// [SECTION] Probe entry point
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <mma.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

#include "probe_cuda.cuh"

namespace gpuplan::probe {

namespace {

constexpr size_t kWorkspaceBytes = size_t{64} << 20;  // 64 MiB, like cuBLAS's own default on Hopper
constexpr int kCandidateAlgos = 8;                    // heuristic results timed before the measurement

// [SECTION] cuBLASLt errors and the precision table ---------------------------------------------

[[noreturn]] void ThrowCublas(cublasStatus_t status, const char* call, const char* file, int line) {
  throw CudaFailure(std::string(call) + ": " + cublasLtGetStatusName(status) + " (" +
                    cublasLtGetStatusString(status) + ") at " + file + ":" + std::to_string(line));
}

#define PROBE_CUBLAS(call)                                                                     \
  do {                                                                                         \
    const cublasStatus_t probe_status_ = (call);                                               \
    if (probe_status_ != CUBLAS_STATUS_SUCCESS) ThrowCublas(probe_status_, #call, __FILE__, __LINE__); \
  } while (0)

struct GemmSpec {
  const char* key;            // --only name
  const char* id;             // metric id
  const char* name;
  const char* catalog_field;  // nullptr: decided at run time (FP64) or none
  cudaDataType_t ab;          // A and B element type
  cudaDataType_t cd;          // C and D element type
  cublasComputeType_t compute;
  cudaDataType_t scale;       // alpha/beta type
  int min_cc;                 // compute capability × 10
  const char* needs;          // why min_cc
  bool large;                 // 8192³ (16/8-bit and TF32) or 4096³ (FP64, FP32) in full mode
  double tolerance;           // on max |D - ref| / max |ref|
  int fast_accum;             // FP8 only: CUBLASLT_MATMUL_DESC_FAST_ACCUM; -1: not set
  const char* types;          // in words, for the method string
};

// Tolerances: output rounding plus accumulation error, normwise (see the check below), with
// margin; a wrong layout or scale gives an error of order 1.
//   FP64 1e-12; FP32 1e-5; TF32 5e-3 (inputs rounded to 10 mantissa bits); FP16 out 2e-3
//   (unit roundoff 4.9e-4); BF16 out 1e-2 (3.9e-3); FP8 in, BF16 out 1e-2; INT8 exact.
const GemmSpec kSpecs[] = {
    {"fp64", "gemm_fp64", N_("GEMM FP64 (cuBLASLt)"), nullptr, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F,
     0, "", false, 1e-12, -1,
     "A,B,C,D FP64, compute FP64 (CUBLAS_COMPUTE_64F; FP64 tensor cores where the GPU has them)"},
    {"fp32", "gemm_fp32", N_("GEMM FP32 (cuBLASLt)"), "fp32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, 0,
     "", false, 1e-5, -1, "A,B,C,D FP32, compute FP32 (CUBLAS_COMPUTE_32F: no TF32, no tensor cores)"},
    {"tf32", "gemm_tf32", N_("GEMM TF32 (cuBLASLt)"), "tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32,
     CUDA_R_32F, 80, "TF32 tensor cores (compute capability 8.0+)", true, 5e-3, -1,
     "A,B,C,D FP32, compute CUBLAS_COMPUTE_32F_FAST_TF32 (TF32 tensor cores, FP32 accumulate)"},
    {"fp16", "gemm_fp16", N_("GEMM FP16 (cuBLASLt)"), "fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F,
     70, "FP16 tensor cores (compute capability 7.0+)", true, 2e-3, -1,
     "A,B,C,D FP16, compute FP32 (FP32 accumulate, the training setting)"},
    {"bf16", "gemm_bf16", N_("GEMM BF16 (cuBLASLt)"), "bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F,
     80, "BF16 tensor cores (compute capability 8.0+)", true, 1e-2, -1, "A,B,C,D BF16, compute FP32 (FP32 accumulate)"},
    {"fp8", "gemm_fp8", N_("GEMM FP8 E4M3 (cuBLASLt)"), "fp8", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F,
     CUDA_R_32F, 89, "FP8 tensor cores (compute capability 8.9+)", true, 1e-2, 1,
     "A,B FP8 E4M3 (scale pointers = 1.0), C,D BF16, compute FP32, fast accumulation on "
     "(CUBLASLT_MATMUL_DESC_FAST_ACCUM)"},
    {"fp8", "gemm_fp8_precise_accum", N_("GEMM FP8 E4M3, precise accumulation (cuBLASLt)"), "", CUDA_R_8F_E4M3,
     CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 89, "FP8 tensor cores (compute capability 8.9+)", true, 1e-2, 0,
     "A,B FP8 E4M3 (scale pointers = 1.0), C,D BF16, compute FP32, fast accumulation off (periodic promotion)"},
    {"int8", "gemm_int8", N_("GEMM INT8 (cuBLASLt)"), "int8", CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, CUDA_R_32I, 75,
     "INT8 tensor cores (compute capability 7.5+)", true, 0.0, -1, "A,B INT8, C,D INT32, compute INT32 (exact)"},
};

// The FP64 row is compared with the catalog's FP64 tensor-core figure on GPUs that have DMMA
// (A100, H100/H200, B200); elsewhere with plain FP64.
std::string Fp64CatalogField(int cc) { return (cc == 80 || cc == 90 || cc == 100) ? "fp64_tensor" : "fp64"; }

size_t ElementBytes(cudaDataType_t t) {
  switch (t) {
    case CUDA_R_64F: return 8;
    case CUDA_R_32F:
    case CUDA_R_32I: return 4;
    case CUDA_R_16F:
    case CUDA_R_16BF: return 2;
    default: return 1;  // FP8, INT8
  }
}

std::string Mnk(int m, int n, int k) {
  return "m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k);
}

// [SECTION] Random fill and host conversion --------------------------------------------------------

// Uniform in [-1, 1) for floating types, uniform over [-128, 127] for INT8.
__global__ void FillKernel(void* p, cudaDataType_t type, size_t n, uint32_t seed) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float r = 2.0f * HashUnit(i, seed) - 1.0f;
    switch (type) {
      case CUDA_R_64F: static_cast<double*>(p)[i] = r; break;
      case CUDA_R_32F: static_cast<float*>(p)[i] = r; break;
      case CUDA_R_16F: static_cast<__half*>(p)[i] = __float2half(r); break;
      case CUDA_R_16BF: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16(r); break;
      case CUDA_R_8F_E4M3: static_cast<__nv_fp8_e4m3*>(p)[i] = __nv_fp8_e4m3(r); break;
      case CUDA_R_8I: static_cast<int8_t*>(p)[i] = static_cast<int8_t>(static_cast<int>(HashU32(i, seed) >> 24) - 128); break;
      default: break;
    }
  }
}

void Fill(const Context& ctx, void* p, cudaDataType_t type, size_t n, uint32_t seed) {
  FillKernel<<<ctx.prop.multiProcessorCount * 8, 256, 0, ctx.stream>>>(p, type, n, seed);
  PROBE_CUDA(cudaGetLastError());
}

double ToDouble(const void* base, cudaDataType_t type, size_t i) {
  switch (type) {
    case CUDA_R_64F: return static_cast<const double*>(base)[i];
    case CUDA_R_32F: return static_cast<const float*>(base)[i];
    case CUDA_R_16F: return __half2float(static_cast<const __half*>(base)[i]);
    case CUDA_R_16BF: return __bfloat162float(static_cast<const __nv_bfloat16*>(base)[i]);
    case CUDA_R_8F_E4M3: return static_cast<float>(static_cast<const __nv_fp8_e4m3*>(base)[i]);
    case CUDA_R_8I: return static_cast<const int8_t*>(base)[i];
    case CUDA_R_32I: return static_cast<const int32_t*>(base)[i];
    default: return kNaN;
  }
}

// [SECTION] cuBLASLt matmul wrapper --------------------------------------------------------------

class LtGemm {
 public:
  LtGemm(cublasLtHandle_t lt, const GemmSpec& spec, int m, int n, int k, const float* scale_one) : lt_(lt) {
    PROBE_CUBLAS(cublasLtMatmulDescCreate(&desc_, spec.compute, spec.scale));
    const cublasOperation_t trans_a = CUBLAS_OP_T, trans_b = CUBLAS_OP_N;
    PROBE_CUBLAS(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &trans_a, sizeof trans_a));
    PROBE_CUBLAS(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &trans_b, sizeof trans_b));
    if (spec.ab == CUDA_R_8F_E4M3) {
      PROBE_CUBLAS(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale_one,
                                                  sizeof scale_one));
      PROBE_CUBLAS(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale_one,
                                                  sizeof scale_one));
    }
    if (spec.fast_accum >= 0) {
      const int8_t fast = static_cast<int8_t>(spec.fast_accum);
      PROBE_CUBLAS(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
    }
    PROBE_CUBLAS(cublasLtMatrixLayoutCreate(&a_, spec.ab, k, m, k));
    PROBE_CUBLAS(cublasLtMatrixLayoutCreate(&b_, spec.ab, k, n, k));
    PROBE_CUBLAS(cublasLtMatrixLayoutCreate(&c_, spec.cd, m, n, m));
    PROBE_CUBLAS(cublasLtMatmulPreferenceCreate(&pref_));
    PROBE_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref_, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                      &kWorkspaceBytes, sizeof kWorkspaceBytes));
    switch (spec.scale) {
      case CUDA_R_64F: alpha_ = &alpha_d_, beta_ = &beta_d_; break;
      case CUDA_R_32I: alpha_ = &alpha_i_, beta_ = &beta_i_; break;
      default: alpha_ = &alpha_f_, beta_ = &beta_f_; break;
    }
  }
  ~LtGemm() {
    if (pref_) cublasLtMatmulPreferenceDestroy(pref_);
    if (c_) cublasLtMatrixLayoutDestroy(c_);
    if (b_) cublasLtMatrixLayoutDestroy(b_);
    if (a_) cublasLtMatrixLayoutDestroy(a_);
    if (desc_) cublasLtMatmulDescDestroy(desc_);
  }
  LtGemm(const LtGemm&) = delete;
  LtGemm& operator=(const LtGemm&) = delete;

  // Asks the heuristic for up to `count` algorithms. Returns the heuristic's status; "no
  // algorithm" (CUBLAS_STATUS_NOT_SUPPORTED, or zero results) is not an error for the caller.
  cublasStatus_t FindAlgos(int count) {
    std::vector<cublasLtMatmulHeuristicResult_t> results(count);
    int returned = 0;
    const cublasStatus_t status =
        cublasLtMatmulAlgoGetHeuristic(lt_, desc_, a_, b_, c_, c_, pref_, count, results.data(), &returned);
    if (status != CUBLAS_STATUS_SUCCESS) return status;
    for (int i = 0; i < returned; ++i) {
      if (results[i].state == CUBLAS_STATUS_SUCCESS && results[i].workspaceSize <= kWorkspaceBytes)
        algos_.push_back(results[i]);
    }
    return algos_.empty() ? CUBLAS_STATUS_NOT_SUPPORTED : CUBLAS_STATUS_SUCCESS;
  }
  size_t algo_count() const { return algos_.size(); }

  int AlgoId(size_t index) const {
    int32_t id = -1;
    size_t written = 0;
    cublasLtMatmulAlgoConfigGetAttribute(&algos_[index].algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, &written);
    return id;
  }

  // D = A^T·B with algorithm `index` (C aliases D; beta = 0).
  void Run(size_t index, const void* a, const void* b, void* d, void* workspace, cudaStream_t stream) const {
    PROBE_CUBLAS(cublasLtMatmul(lt_, desc_, alpha_, a, a_, b, b_, beta_, d, c_, d, c_, &algos_[index].algo, workspace,
                                kWorkspaceBytes, stream));
  }

 private:
  cublasLtHandle_t lt_;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
  cublasLtMatmulPreference_t pref_ = nullptr;
  std::vector<cublasLtMatmulHeuristicResult_t> algos_;
  double alpha_d_ = 1, beta_d_ = 0;
  float alpha_f_ = 1, beta_f_ = 0;
  int32_t alpha_i_ = 1, beta_i_ = 0;
  const void* alpha_ = nullptr;
  const void* beta_ = nullptr;
};

struct LtResources {
  cublasLtHandle_t lt = nullptr;
  DeviceBuffer workspace;
  DeviceBuffer one;  // a device float 1.0 for the FP8 scale pointers
  ~LtResources() {
    if (lt) cublasLtDestroy(lt);
  }
};

// [SECTION] Host reference check ---------------------------------------------------------------------

// Copies A (k×m), B (k×n) and D (m×n) back and compares D with A^T·B computed in double.
// The error is normwise: max |D - ref| / max |ref|. (Element-wise relative error is useless where
// ref is near 0; this measure is of order 1 for a wrong layout and of order the output's unit
// roundoff for a right one.)
void CompareWithHost(const void* d_a, const void* d_b, const void* d_d, cudaDataType_t ab, cudaDataType_t cd, int m,
                     int n, int k, Check& check) {
  std::vector<unsigned char> a(ElementBytes(ab) * k * m), b(ElementBytes(ab) * k * n), d(ElementBytes(cd) * m * n);
  PROBE_CUDA(cudaMemcpy(a.data(), d_a, a.size(), cudaMemcpyDeviceToHost));
  PROBE_CUDA(cudaMemcpy(b.data(), d_b, b.size(), cudaMemcpyDeviceToHost));
  PROBE_CUDA(cudaMemcpy(d.data(), d_d, d.size(), cudaMemcpyDeviceToHost));
  std::vector<double> ad(size_t(k) * m), bd(size_t(k) * n);
  for (size_t i = 0; i < ad.size(); ++i) ad[i] = ToDouble(a.data(), ab, i);
  for (size_t i = 0; i < bd.size(); ++i) bd[i] = ToDouble(b.data(), ab, i);
  double max_err = 0, max_ref = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      const double* ai = &ad[size_t(i) * k];
      const double* bj = &bd[size_t(j) * k];
      double ref = 0;
      for (int p = 0; p < k; ++p) ref += ai[p] * bj[p];
      const double got = ToDouble(d.data(), cd, size_t(j) * m + i);
      const double err = std::isfinite(got) ? std::fabs(got - ref) : INFINITY;
      max_err = std::max(max_err, err);
      max_ref = std::max(max_ref, std::fabs(ref));
    }
  }
  check.present = true;
  check.m = m, check.n = n, check.k = k;
  check.max_rel_err = max_ref > 0 ? max_err / max_ref : max_err;
  // JSON has no infinity; a non-finite output is reported as error 1e300 and fails.
  if (!std::isfinite(check.max_rel_err)) check.max_rel_err = 1e300;
  check.passed = check.max_rel_err <= check.tolerance;
}

// Runs the GEMM of `spec` at a small size with the heuristic's first algorithm and checks it.
// Odd sizes where the layout allows them (they catch edge handling); FP8/INT8 need multiples of 16.
Check CheckLt(Context& ctx, LtResources& res, const GemmSpec& spec) {
  Check check;
  check.tolerance = spec.tolerance;
  const int odd[3] = {129, 257, 193}, even[3] = {192, 320, 256};
  const bool odd_ok = !(spec.ab == CUDA_R_8F_E4M3 || spec.ab == CUDA_R_8I);
  for (const int* size : odd_ok ? std::vector<const int*>{odd, even} : std::vector<const int*>{even}) {
    const int m = size[0], n = size[1], k = size[2];
    LtGemm gemm(res.lt, spec, m, n, k, res.one.as<float>());
    if (gemm.FindAlgos(1) != CUBLAS_STATUS_SUCCESS) continue;
    DeviceBuffer a(ElementBytes(spec.ab) * k * m), b(ElementBytes(spec.ab) * k * n), d(ElementBytes(spec.cd) * m * n);
    Fill(ctx, a.get(), spec.ab, size_t(k) * m, 7);
    Fill(ctx, b.get(), spec.ab, size_t(k) * n, 8);
    gemm.Run(0, a.get(), b.get(), d.get(), res.workspace.get(), ctx.stream);
    PROBE_CUDA(cudaStreamSynchronize(ctx.stream));
    CompareWithHost(a.get(), b.get(), d.get(), spec.ab, spec.cd, m, n, k, check);
    return check;
  }
  check.present = true;
  check.note = "not run: cuBLASLt has no algorithm for the check sizes";
  return check;
}

// [SECTION] WMMA kernel ---------------------------------------------------------------------------

// A plain tensor-core GEMM through the WMMA API (mma.sync underneath): BF16 in, FP32 accumulate
// and out, the same TN layout as the cuBLAS rows (A row-major m×k, B column-major k×n, D
// column-major). A 128×128 tile per block of 8 warps, each warp 32×64 (2×4 fragments of 16×16),
// k-steps of 32 staged in shared memory by cp.async, double buffered, rows padded by 8 elements
// against bank conflicts. It stops there: no wgmma/TMA (Hopper), no swizzled tile order, no
// split-k, so it shows the gap to cuBLAS rather than closing it. Needs m, n % 128 == 0, k % 32 == 0.
namespace wmma = nvcuda::wmma;
constexpr int kTileM = 128, kTileN = 128, kTileK = 32, kPad = 8, kLds = kTileK + kPad, kWmmaThreads = 256;

__device__ __forceinline__ void CpAsync16(void* smem, const void* gmem) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void CpAsyncCommit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void CpAsyncWait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

__global__ void __launch_bounds__(kWmmaThreads, 2)
    WmmaGemmBf16(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b, float* __restrict__ d,
                 int m, int n, int k) {
  __shared__ __align__(128) __nv_bfloat16 as[2][kTileM * kLds];
  __shared__ __align__(128) __nv_bfloat16 bs[2][kTileN * kLds];
  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int warp_m = warp / 2;  // 0..3: 32 rows each
  const int warp_n = warp % 2;  // 0..1: 64 columns each
  const int block_m = blockIdx.y * kTileM, block_n = blockIdx.x * kTileN;
  const __nv_bfloat16* a_tile = a + size_t(block_m) * k;
  const __nv_bfloat16* b_tile = b + size_t(block_n) * k;

  // 128 rows × 32 k = 512 chunks of 8 elements (16 bytes) per matrix: 2 per thread.
  auto load = [&](int stage, int k0) {
#pragma unroll
    for (int c = tid; c < kTileM * kTileK / 8; c += kWmmaThreads) {
      const int row = c / (kTileK / 8), col = (c % (kTileK / 8)) * 8;
      CpAsync16(&as[stage][row * kLds + col], a_tile + size_t(row) * k + k0 + col);
      CpAsync16(&bs[stage][row * kLds + col], b_tile + size_t(row) * k + k0 + col);
    }
  };

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][4];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  const int k_tiles = k / kTileK;
  load(0, 0);
  CpAsyncCommit();
  for (int t = 0; t < k_tiles; ++t) {
    const int stage = t & 1;
    if (t + 1 < k_tiles) {
      load(stage ^ 1, (t + 1) * kTileK);  // the other buffer was released by the last barrier
      CpAsyncCommit();
      CpAsyncWait<1>();
    } else {
      CpAsyncWait<0>();
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kTileK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb[4];
#pragma unroll
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(fa[i], &as[stage][(warp_m * 32 + i * 16) * kLds + kk], kLds);
#pragma unroll
      for (int j = 0; j < 4; ++j) wmma::load_matrix_sync(fb[j], &bs[stage][(warp_n * 64 + j * 16) * kLds + kk], kLds);
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int row = block_m + warp_m * 32 + i * 16, col = block_n + warp_n * 64 + j * 16;
      wmma::store_matrix_sync(d + size_t(col) * m + row, acc[i][j], m, wmma::mem_col_major);
    }
}

void LaunchWmma(const Context& ctx, const void* a, const void* b, void* d, int m, int n, int k) {
  const dim3 grid(n / kTileN, m / kTileM);
  WmmaGemmBf16<<<grid, kWmmaThreads, 0, ctx.stream>>>(static_cast<const __nv_bfloat16*>(a),
                                                       static_cast<const __nv_bfloat16*>(b), static_cast<float*>(d), m,
                                                       n, k);
}

// [SECTION] Probe entry point -----------------------------------------------------------------------

int LargeSize(const Context& ctx, bool large) {
  if (ctx.options.quick) return large ? 2048 : 1024;
  return large ? 8192 : 4096;
}

// Inputs of the timed GEMMs use these seeds whatever the precision, so the WMMA kernel and
// cuBLAS BF16 multiply the same numbers.
constexpr uint32_t kSeedA = 101, kSeedB = 202;

void ProbeLt(Context& ctx, LtResources& res, const GemmSpec& spec) {
  if (ctx.cc < spec.min_cc) {
    ctx.Skipped(spec.id, std::string("needs ") + spec.needs + "; this GPU is " + std::to_string(ctx.cc / 10) + "." +
                             std::to_string(ctx.cc % 10));
    return;
  }
  ctx.Announce(spec.name);
  const int size = LargeSize(ctx, spec.large);
  const int m = size, n = size, k = size;
  LtGemm gemm(res.lt, spec, m, n, k, res.one.as<float>());
  const cublasStatus_t found = gemm.FindAlgos(kCandidateAlgos);
  if (found != CUBLAS_STATUS_SUCCESS) {
    ctx.Skipped(spec.id, std::string("cuBLASLt heuristic found no algorithm (") + cublasLtGetStatusName(found) +
                             ") for " + spec.types + ", " + Mnk(m, n, k));
    return;
  }
  Check check = CheckLt(ctx, res, spec);

  DeviceBuffer a(ElementBytes(spec.ab) * size_t(k) * m), b(ElementBytes(spec.ab) * size_t(k) * n),
      d(ElementBytes(spec.cd) * size_t(m) * n);
  Fill(ctx, a.get(), spec.ab, size_t(k) * m, kSeedA);
  Fill(ctx, b.get(), spec.ab, size_t(k) * n, kSeedB);
  size_t best = 0;
  if (gemm.algo_count() > 1 && !ctx.options.quick) {
    double best_s = 1e30;
    for (size_t i = 0; i < gemm.algo_count(); ++i) {
      const Timing t = TimeGpu(ctx, 1, 3, [&] { gemm.Run(i, a.get(), b.get(), d.get(), res.workspace.get(), ctx.stream); });
      if (t.summary.median < best_s) {
        best_s = t.summary.median;
        best = i;
      }
    }
  }
  const Timing t = TimeGpu(ctx, ctx.Warmup(), ctx.Reps(),
                           [&] { gemm.Run(best, a.get(), b.get(), d.get(), res.workspace.get(), ctx.stream); });
  Metric metric;
  metric.id = spec.id;
  metric.name = spec.name;
  metric.unit = spec.ab == CUDA_R_8I ? "OP/s" : "FLOP/s";
  metric.catalog_field = spec.catalog_field != nullptr ? spec.catalog_field : Fp64CatalogField(ctx.cc);
  metric.m = m, metric.n = n, metric.k = k;
  metric.flop_per_rep = 2.0 * m * n * static_cast<double>(k);
  metric.method = std::string("cuBLASLt matmul D = A^T*B (TN, column-major), ") + spec.types + ", " + Mnk(m, n, k) +
                  "; inputs uniform random (hash RNG; [-1,1), INT8 [-128,127]); " +
                  std::to_string(gemm.algo_count()) + " heuristic algorithm(s) with a 64 MiB workspace" +
                  (gemm.algo_count() > 1 && !ctx.options.quick ? ", each timed briefly, the fastest measured" : "") +
                  "; CUDA events around each GEMM, median; 2*m*n*k operations per GEMM";
  SetRate(metric, t, metric.flop_per_rep);
  metric.numbers.emplace_back("cublaslt_algo_id", gemm.AlgoId(best));
  metric.numbers.emplace_back("heuristic_rank", static_cast<double>(best));
  metric.check = check;
  ctx.Add(metric);
}

void ProbeWmma(Context& ctx) {
  if (ctx.cc < 80) {
    ctx.Skipped("wmma_bf16", "needs BF16 WMMA and cp.async (compute capability 8.0+)");
    return;
  }
  ctx.Announce("WMMA BF16 kernel (hand-written)");
  Check check;
  check.tolerance = 1e-4;  // FP32 output: accumulation error only
  {
    const int m = 256, n = 384, k = 320;
    DeviceBuffer a(2 * size_t(k) * m), b(2 * size_t(k) * n), d(4 * size_t(m) * n);
    Fill(ctx, a.get(), CUDA_R_16BF, size_t(k) * m, 7);
    Fill(ctx, b.get(), CUDA_R_16BF, size_t(k) * n, 8);
    LaunchWmma(ctx, a.get(), b.get(), d.get(), m, n, k);
    PROBE_CUDA(cudaGetLastError());
    PROBE_CUDA(cudaStreamSynchronize(ctx.stream));
    CompareWithHost(a.get(), b.get(), d.get(), CUDA_R_16BF, CUDA_R_32F, m, n, k, check);
  }
  const int size = LargeSize(ctx, true);
  const int m = size, n = size, k = size;
  DeviceBuffer a(2 * size_t(k) * m), b(2 * size_t(k) * n), d(4 * size_t(m) * n);
  Fill(ctx, a.get(), CUDA_R_16BF, size_t(k) * m, kSeedA);
  Fill(ctx, b.get(), CUDA_R_16BF, size_t(k) * n, kSeedB);
  const Timing t = TimeGpu(ctx, ctx.Warmup(), ctx.Reps(), [&] { LaunchWmma(ctx, a.get(), b.get(), d.get(), m, n, k); });
  Metric metric;
  metric.id = "wmma_bf16";
  metric.name = N_("GEMM BF16, hand-written WMMA kernel");
  metric.unit = "FLOP/s";
  metric.m = m, metric.n = n, metric.k = k;
  metric.flop_per_rep = 2.0 * m * n * static_cast<double>(k);
  metric.method = "WMMA (nvcuda::wmma, mma.sync) kernel: A,B BF16, FP32 accumulate, D FP32; TN like the cuBLAS rows, " +
                  Mnk(m, n, k) +
                  "; 128x128 block tile, 8 warps of 32x64, k-step 32, cp.async double buffering; same inputs as "
                  "gemm_bf16; CUDA events, median; ratio_to_cublas_bf16 = this / gemm_bf16";
  SetRate(metric, t, metric.flop_per_rep);
  for (const Metric& other : *ctx.metrics) {
    if (other.id == "gemm_bf16" && other.m == m) metric.numbers.emplace_back("ratio_to_cublas_bf16", metric.value / other.value);
  }
  metric.check = check;
  ctx.Add(metric);
}

}  // namespace

int PlannedGemmSteps(const Context& ctx) {
  int steps = 0;
  for (const GemmSpec& spec : kSpecs) steps += ctx.options.Wants(spec.key) ? 1 : 0;
  if (ctx.options.Wants("wmma")) steps += 1;
  return steps;
}

void ProbeGemms(Context& ctx) {
  bool any_lt = false;
  for (const GemmSpec& spec : kSpecs) any_lt = any_lt || ctx.options.Wants(spec.key);
  if (any_lt) {
    LtResources res;
    PROBE_CUBLAS(cublasLtCreate(&res.lt));
    res.workspace = DeviceBuffer(kWorkspaceBytes);
    res.one = DeviceBuffer(sizeof(float));
    const float one = 1.0f;
    PROBE_CUDA(cudaMemcpy(res.one.get(), &one, sizeof one, cudaMemcpyHostToDevice));
    for (const GemmSpec& spec : kSpecs) {
      if (ctx.options.Wants(spec.key)) ProbeLt(ctx, res, spec);
    }
  }
  if (ctx.options.Wants("wmma")) ProbeWmma(ctx);
}

}  // namespace gpuplan::probe
