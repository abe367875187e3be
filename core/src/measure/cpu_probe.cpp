// cpu_probe.cpp — see gpuplan/cpu_probe.h.
//
// Index:
//   [SECTION] Platform: clock, thread count, a spin barrier (the rest is cpu_platform.h)
//   [SECTION] Kernels: one portable body each, compiled once per ISA and chosen at run time
//   [SECTION] DetectCpu, ReportedCacheLevels
//   [SECTION] STREAM
//   [SECTION] Working-set sweep and the plateau detector
//   [SECTION] FMA peak
//   [SECTION] RunCpuProbe
//   [SECTION] JSON: gpuplan.cpu-probe/1
//
// Built without -march=native: the loops a machine can run faster are compiled a second and
// third time with GCC's target attribute (AVX2+FMA, AVX-512) and picked with
// __builtin_cpu_supports (cpu_platform.h: the same tests and feature sets as the GEMM), so one
// binary is right on every x86-64 and fast on the one it runs on.
#include "gpuplan/cpu_probe.h"
#include "gpuplan/i18n.h"
#include "gpuplan/limits.h"
#include "gpuplan/units.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "cpu_platform.h"
#include "catalog/json_fields.h"

#if defined(__linux__) || defined(__EMSCRIPTEN__) || defined(__APPLE__)
#include <unistd.h>
#endif

#if GPUPLAN_CPU_X86
#include <immintrin.h>
#endif

namespace gpuplan {

// [SECTION] Platform ------------------------------------------------------------------------
namespace {

using platform::AlignedBuffer;
using platform::kThreadsAvailable;

// Chunk edges fall on cache lines.
constexpr size_t kLineDoubles = platform::kCacheLineBytes / sizeof(double);

double Now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

int ResolveThreads(int requested) {
  if (!kThreadsAvailable) return 1;
  return requested > 0 ? std::min(requested, 1024) : platform::AvailableCpus();
}

// Thread t's contiguous share of n elements; edges on cache lines so no line is written by two.
void Chunk(size_t n, int threads, int t, size_t& lo, size_t& hi) {
  const auto edge = [&](int k) {
    if (k >= threads) return n;
    const size_t e = static_cast<size_t>(static_cast<double>(n) * k / threads);
    return std::min(n, e / kLineDoubles * kLineDoubles);
  };
  lo = edge(t);
  hi = edge(t + 1);
}

}  // namespace

// [SECTION] Kernels ---------------------------------------------------------------------------
// Each body is written once as plain C++ and force-inlined into a wrapper per ISA; GCC then
// vectorises the inlined loop for the wrapper's target. (An always_inline callee whose ISA
// is a subset of the caller's may be inlined: ix86_can_inline_p.) The STREAM bodies are
// McCalpin's loops with restrict added; no non-temporal stores anywhere, as a plain
// `gcc -O3` STREAM has none (stores allocate their line: write-allocate traffic is real
// but, as in STREAM, not counted).
namespace {

#define GPUPLAN_INLINE inline __attribute__((always_inline))

GPUPLAN_INLINE void CopyBody(double* __restrict c, const double* __restrict a, size_t n) {
  for (size_t j = 0; j < n; ++j) c[j] = a[j];
}
GPUPLAN_INLINE void ScaleBody(double* __restrict b, const double* __restrict c, double scalar, size_t n) {
  for (size_t j = 0; j < n; ++j) b[j] = scalar * c[j];
}
GPUPLAN_INLINE void AddBody(double* __restrict c, const double* __restrict a, const double* __restrict b, size_t n) {
  for (size_t j = 0; j < n; ++j) c[j] = a[j] + b[j];
}
GPUPLAN_INLINE void TriadBody(double* __restrict a, const double* __restrict b, const double* __restrict c,
                              double scalar, size_t n) {
  for (size_t j = 0; j < n; ++j) a[j] = b[j] + scalar * c[j];
}

// Eight doubles: one zmm, two ymm, four xmm or four wasm v128, as the target allows.
typedef double V8d __attribute__((vector_size(64)));
typedef float V16f __attribute__((vector_size(64)));

// Sum of p[0, n) with kAcc independent vector accumulators: enough of them that neither the
// add latency nor an order of summation bounds the rate, only the loads (the "load" kernel
// of likwid-bench, for the same reason).
template <int kAcc>
GPUPLAN_INLINE double SumBody(const double* p, size_t n) {
  V8d acc[kAcc] = {};
  constexpr size_t kStep = 8 * kAcc;
  size_t i = 0;
  for (; i + kStep <= n; i += kStep) {
#pragma GCC unroll 16
    for (int k = 0; k < kAcc; ++k) {
      V8d x;
      std::memcpy(&x, p + i + 8 * static_cast<size_t>(k), sizeof x);
      acc[k] += x;
    }
  }
  V8d total = acc[0];
  for (int k = 1; k < kAcc; ++k) total += acc[k];
  double s = 0;
  for (int l = 0; l < 8; ++l) s += total[l];
  for (; i < n; ++i) s += p[i];
  return s;
}

// kAcc chains of acc = acc * m + a: independent, so the pipes, not the latency, set the
// rate. Returns a sum so nothing is optimised away. The portable version: two instructions
// per lane-FLOP pair where there is no FMA (wasm SIMD128, SSE2; ISO C++ does not contract).
template <typename V, int kAcc>
GPUPLAN_INLINE double MulAddBody(int64_t iterations, float seed) {
  V acc[kAcc];
  for (int k = 0; k < kAcc; ++k) acc[k] = V{} + (seed + 1e-3f * static_cast<float>(k));
  const V m = V{} + 0.9999999f;
  const V a = V{} + 1e-7f;
  for (int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 16
    for (int k = 0; k < kAcc; ++k) acc[k] = acc[k] * m + a;
  }
  V total = acc[0];
  for (int k = 1; k < kAcc; ++k) total += acc[k];
  double s = 0;
  for (size_t l = 0; l < sizeof(V) / sizeof(total[0]); ++l) s += static_cast<double>(total[l]);
  return s;
}

struct Kernels {
  const char* isa;
  int simd_bits;
  int fma_units_assumed;  // 0: the ISA has no FMA
  void (*copy)(double*, const double*, size_t);
  void (*scale)(double*, const double*, double, size_t);
  void (*add)(double*, const double*, const double*, size_t);
  void (*triad)(double*, const double*, const double*, double, size_t);
  double (*sum)(const double*, size_t);
  double (*fma32)(int64_t, float);  // returns a checksum; FLOP per iteration below
  double (*fma64)(int64_t, float);
  double flop32_per_iteration;
  double flop64_per_iteration;
};

// The copy stays a vector loop: with restrict, GCC and clang would turn it into a call to
// memcpy, and glibc's memcpy measured ~15% below the plain loop a -O3 -march=native STREAM
// gets here (Zen 5 VM, both 1 and 2 threads). The reference is the loop, so the probe is too.
#if defined(__clang__)
#define GPUPLAN_NO_MEMCPY __attribute__((no_builtin("memcpy")))
#elif defined(__GNUC__)
#define GPUPLAN_NO_MEMCPY __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define GPUPLAN_NO_MEMCPY
#endif

#define GPUPLAN_STREAM_SET(suffix, attr, acc)                                                                      \
  attr GPUPLAN_NO_MEMCPY void Copy##suffix(double* c, const double* a, size_t n) { CopyBody(c, a, n); }          \
  attr void Scale##suffix(double* b, const double* c, double s, size_t n) { ScaleBody(b, c, s, n); }             \
  attr void Add##suffix(double* c, const double* a, const double* b, size_t n) { AddBody(c, a, b, n); }          \
  attr void Triad##suffix(double* a, const double* b, const double* c, double s, size_t n) {                      \
    TriadBody(a, b, c, s, n);                                                                                     \
  }                                                                                                               \
  attr double Sum##suffix(const double* p, size_t n) { return SumBody<acc>(p, n); }

// Portable: SSE2 on x86-64, SIMD128 in a wasm build with -msimd128, scalar otherwise. Fewer
// accumulators than registers (16 xmm; V8 in wasm has 16 too).
GPUPLAN_STREAM_SET(Generic, , 2)
double MulAdd32Generic(int64_t n, float seed) {
  typedef float V4f __attribute__((vector_size(16)));
  return MulAddBody<V4f, 12>(n, seed);
}
double MulAdd64Generic(int64_t n, float seed) {
  typedef double V2d __attribute__((vector_size(16)));
  return MulAddBody<V2d, 12>(n, seed);
}

#if GPUPLAN_CPU_X86
// The sets platform::HasAvx2Fma and HasAvx512 test. These loops need only AVX-512F; the wider
// set is the project's one definition of AVX-512 (g++ 12 emits the same code under either).
#define GPUPLAN_AVX2 __attribute__((target(GPUPLAN_CPU_AVX2_FEATURES)))
#if defined(__clang__)  // clang takes the vector width as its own attribute
#define GPUPLAN_AVX512 __attribute__((target(GPUPLAN_CPU_AVX512_FEATURES), min_vector_width(512)))
#else
#define GPUPLAN_AVX512 __attribute__((target(GPUPLAN_CPU_AVX512_FEATURES ",prefer-vector-width=512")))
#endif
GPUPLAN_STREAM_SET(Avx2, GPUPLAN_AVX2, 4)    // 4 x 2 ymm accumulators
GPUPLAN_STREAM_SET(Avx512, GPUPLAN_AVX512, 8)  // 8 zmm: 2 loads/cycle x add latency

// 16 accumulators: 2 FMA pipes x 4-cycle latency needs 8 chains in flight; 16 leaves margin
// for cores with longer latency (and 16 + 2 constants fit AVX-512's 32 registers).
GPUPLAN_AVX2 double Fma32Avx2(int64_t n, float seed) {
  __m256 acc[12];  // 12 + 2 of 16 ymm registers
  for (int k = 0; k < 12; ++k) acc[k] = _mm256_set1_ps(seed + 1e-3f * static_cast<float>(k));
  const __m256 m = _mm256_set1_ps(0.9999999f), a = _mm256_set1_ps(1e-7f);
  for (int64_t it = 0; it < n; ++it) {
#pragma GCC unroll 12
    for (int k = 0; k < 12; ++k) acc[k] = _mm256_fmadd_ps(acc[k], m, a);
  }
  float out[8];
  __m256 t = acc[0];
  for (int k = 1; k < 12; ++k) t = _mm256_add_ps(t, acc[k]);
  _mm256_storeu_ps(out, t);
  double s = 0;
  for (float v : out) s += static_cast<double>(v);
  return s;
}
GPUPLAN_AVX2 double Fma64Avx2(int64_t n, float seed) {
  __m256d acc[12];
  for (int k = 0; k < 12; ++k) acc[k] = _mm256_set1_pd(static_cast<double>(seed) + 1e-3 * k);
  const __m256d m = _mm256_set1_pd(0.9999999), a = _mm256_set1_pd(1e-7);
  for (int64_t it = 0; it < n; ++it) {
#pragma GCC unroll 12
    for (int k = 0; k < 12; ++k) acc[k] = _mm256_fmadd_pd(acc[k], m, a);
  }
  double out[4];
  __m256d t = acc[0];
  for (int k = 1; k < 12; ++k) t = _mm256_add_pd(t, acc[k]);
  _mm256_storeu_pd(out, t);
  return out[0] + out[1] + out[2] + out[3];
}
GPUPLAN_AVX512 double Fma32Avx512(int64_t n, float seed) {
  __m512 acc[16];
  for (int k = 0; k < 16; ++k) acc[k] = _mm512_set1_ps(seed + 1e-3f * static_cast<float>(k));
  const __m512 m = _mm512_set1_ps(0.9999999f), a = _mm512_set1_ps(1e-7f);
  for (int64_t it = 0; it < n; ++it) {
#pragma GCC unroll 16
    for (int k = 0; k < 16; ++k) acc[k] = _mm512_fmadd_ps(acc[k], m, a);
  }
  __m512 t = acc[0];
  for (int k = 1; k < 16; ++k) t = _mm512_add_ps(t, acc[k]);
  // Not _mm512_reduce_add_ps: g++ 12 warns inside it (-Wuninitialized on _mm256_undefined_pd).
  float out[16];
  _mm512_storeu_ps(out, t);
  double s = 0;
  for (float v : out) s += static_cast<double>(v);
  return s;
}
GPUPLAN_AVX512 double Fma64Avx512(int64_t n, float seed) {
  __m512d acc[16];
  for (int k = 0; k < 16; ++k) acc[k] = _mm512_set1_pd(static_cast<double>(seed) + 1e-3 * k);
  const __m512d m = _mm512_set1_pd(0.9999999), a = _mm512_set1_pd(1e-7);
  for (int64_t it = 0; it < n; ++it) {
#pragma GCC unroll 16
    for (int k = 0; k < 16; ++k) acc[k] = _mm512_fmadd_pd(acc[k], m, a);
  }
  __m512d t = acc[0];
  for (int k = 1; k < 16; ++k) t = _mm512_add_pd(t, acc[k]);
  double out[8];
  _mm512_storeu_pd(out, t);
  double s = 0;
  for (double v : out) s += v;
  return s;
}
#endif

const Kernels& ActiveKernels() {
  static const Kernels kernels = [] {
#if GPUPLAN_CPU_X86
    if (platform::HasAvx512())
      return Kernels{"avx512f", 512, 2, CopyAvx512, ScaleAvx512, AddAvx512, TriadAvx512, SumAvx512,
                     Fma32Avx512, Fma64Avx512, 16 * 16 * 2, 16 * 8 * 2};
    if (platform::HasAvx2Fma())
      return Kernels{"avx2+fma", 256, 2, CopyAvx2, ScaleAvx2, AddAvx2, TriadAvx2, SumAvx2,
                     Fma32Avx2, Fma64Avx2, 12 * 8 * 2, 12 * 4 * 2};
#endif
#if defined(__wasm_simd128__)
    const char* isa = "wasm-simd128";
    const int bits = 128;
#elif defined(__EMSCRIPTEN__)
    const char* isa = "wasm-scalar";
    const int bits = 64;
#elif defined(__x86_64__)
    const char* isa = "sse2";
    const int bits = 128;
#else
    const char* isa = "generic";
    const int bits = 128;
#endif
    return Kernels{isa, bits, 0, CopyGeneric, ScaleGeneric, AddGeneric, TriadGeneric, SumGeneric,
                   MulAdd32Generic, MulAdd64Generic, 12 * 4 * 2, 12 * 2 * 2};
  }();
  return kernels;
}

}  // namespace

std::string ActiveIsa() { return ActiveKernels().isa; }

// [SECTION] DetectCpu, ReportedCacheLevels ---------------------------------------------------
namespace {

#if !defined(__EMSCRIPTEN__)  // the files below do not exist in a browser
std::string ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  return line;
}

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

#endif

#if defined(__linux__)
// "48K", "1024K", "32M", "1048576" -> bytes; 0 when unreadable.
double ParseSysfsSize(const std::string& text) {
  const std::string t = Trim(text);
  if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0]))) return 0;
  const double v = std::strtod(t.c_str(), nullptr);
  switch (t.back()) {
    case 'K': return v * 1024.0;
    case 'M': return v * kMiB;
    case 'G': return v * kMiB * 1024.0;
    default: return v;
  }
}
#endif

double PhysicalMemoryBytes() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE) && !defined(__EMSCRIPTEN__)
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) return static_cast<double>(pages) * static_cast<double>(page);
#endif
  return 0;
}

}  // namespace

std::vector<CacheLevel> ReportedCacheLevels() {
  std::vector<CacheLevel> levels;
#if defined(__linux__)
  for (int index = 0; index < 16; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string level = Trim(ReadFirstLine(dir + "level"));
    if (level.empty()) break;
    if (Trim(ReadFirstLine(dir + "type")) == "Instruction") continue;
    const double size = ParseSysfsSize(ReadFirstLine(dir + "size"));
    if (size > 0) levels.push_back({std::atoi(level.c_str()), size, 0});
  }
#endif
#if defined(_SC_LEVEL1_DCACHE_SIZE) && !defined(__EMSCRIPTEN__)
  // glibc reads these from CPUID; used when sysfs has no cache folder (seen in KVM guests).
  if (levels.empty()) {
    const int names[] = {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL4_CACHE_SIZE};
    for (int k = 0; k < 4; ++k) {
      const long size = sysconf(names[k]);
      if (size > 0) levels.push_back({k + 1, static_cast<double>(size), 0});
    }
  }
#endif
  std::sort(levels.begin(), levels.end(), [](const CacheLevel& a, const CacheLevel& b) { return a.level < b.level; });
  return levels;
}

#if !defined(__EMSCRIPTEN__)  // (wasm knows neither the clock nor the core: DetectCpu says so)
namespace {

// A core's FMA datapath: pipes that can start an FMA each cycle and their width. From the
// vendors' optimisation guides:
//  - AMD Software Optimization Guide for AMD Family 17h (pub. 55723), 19h (56665) and 1Ah
//    (58455) processors: Zen and Zen+ four 128-bit FP pipes, FMA on two; Zen 2 and Zen 3 two
//    256-bit FMA pipes; Zen 4 two 256-bit FMA pipes, 512-bit instructions split in two halves;
//    Zen 5 two 512-bit FMA pipes on desktop and server parts (256-bit on the mobile Strix Point).
//  - Intel 64 and IA-32 Architectures Optimization Reference Manual (Vol. 1, 2024): client cores
//    Skylake to Raptor Lake two 256-bit FMA ports (0 and 1); Xeon Scalable (Skylake-SP to
//    Granite Rapids) a second 512-bit FMA on port 5 (Skylake-SP and Cascade Lake: Gold 6xxx and
//    Platinum; Silver, Bronze and Gold 5xxx have the port-0/1 fused unit alone).
// Families and models: /proc/cpuinfo's "cpu family" and "model" (CPUID leaf 1).
struct FmaDatapath {
  std::string name;
  int pipes = 0, bits = 0;
};
std::optional<FmaDatapath> KnownDatapath(const std::string& vendor, int family, int model, const std::string& name) {
  if (vendor == "AuthenticAMD") {
    if (family == 0x17) return model < 0x30 ? FmaDatapath{"AMD Zen/Zen+", 2, 128} : FmaDatapath{"AMD Zen 2", 2, 256};
    if (family == 0x19) {
      const bool zen4 =
          (model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) || (model >= 0xa0 && model <= 0xaf);
      return zen4 ? FmaDatapath{"AMD Zen 4", 2, 256} : FmaDatapath{"AMD Zen 3", 2, 256};
    }
    if (family == 0x1a)
      return model >= 0x20 && model <= 0x2f ? FmaDatapath{"AMD Zen 5 (mobile)", 2, 256}
                                            : FmaDatapath{"AMD Zen 5", 2, 512};
    return std::nullopt;
  }
  if (vendor == "GenuineIntel" && family == 6) {
    switch (model) {
      case 0x55: {  // Skylake-SP, Cascade Lake, Cooper Lake
        const bool one = name.find("Silver") != std::string::npos || name.find("Bronze") != std::string::npos ||
                         name.find("Gold 5") != std::string::npos;
        return FmaDatapath{one ? "Intel Xeon Scalable (1 AVX-512 FMA)" : "Intel Xeon Scalable (2 AVX-512 FMA)",
                           one ? 1 : 2, 512};
      }
      case 0x6a:
      case 0x6c:
      case 0x8f:
      case 0xcf:
      case 0xad:
      case 0xae:  // Ice Lake-SP to Granite Rapids
        return FmaDatapath{"Intel Xeon Scalable (2 AVX-512 FMA)", 2, 512};
      case 0x4e:
      case 0x5e:
      case 0x8e:
      case 0x9e:
      case 0xa5:
      case 0xa6:
      case 0x97:
      case 0x9a:
      case 0xb7:
      case 0xba:
      case 0xbf:  // Skylake to Raptor Lake client
        return FmaDatapath{"Intel Core (2 × 256-bit FMA)", 2, 256};
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

// The clock a busy core runs at, from a chain of dependent integer adds (one cycle each on every
// x86-64 and Arm core since the 1990s: Agner Fog's instruction tables, "ADD r,r" latency 1):
// what the FMA units also run at, boost included, where the OS does not report the maximum (VMs
// have no cpufreq). Best of 7 samples of 2 million adds (~4 ms in all). 0 where it cannot run.
double MeasuredClockHz() {
#if defined(__x86_64__) || defined(__aarch64__)
  constexpr int kAddsPerLoop = 100, kLoops = 20000;
  double best = 0;
  for (int sample = 0; sample < 7; ++sample) {
    std::uint64_t x = static_cast<std::uint64_t>(sample);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kLoops; ++i) {
#if defined(__x86_64__)
      asm volatile(".rept 100\n\tadd $1, %0\n\t.endr" : "+r"(x));
#else
      asm volatile(".rept 100\n\tadd %0, %0, #1\n\t.endr" : "+r"(x));
#endif
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s > 0 && x != 0) best = std::max(best, static_cast<double>(kAddsPerLoop) * kLoops / s);
  }
  return best;
#else
  return 0;
#endif
}

}  // namespace
#endif

CpuInfo DetectCpu() {
  CpuInfo info;
  const Kernels& k = ActiveKernels();
  info.isa = k.isa;
  info.simd_bits = k.simd_bits;
  info.logical_cpus = platform::AvailableCpus();
  info.physical_cores = info.logical_cpus;
#if defined(__EMSCRIPTEN__)
  info.model_name = "WebAssembly (browser/node)";
  info.simd_bits = 128;
  info.assumptions.push_back(kThreadsAvailable ? Tr("logical CPUs: as the runtime reports them")
                                               : Tr("logical CPUs: 1 (a wasm build without threads can use one)"));
  info.assumptions.push_back(Tr("clock unknown in wasm: no theoretical peak derived"));
  info.assumptions.push_back(Tr("WebAssembly SIMD128 has no FMA: the measured peak counts a multiply then an add"));
  return info;
#else
  std::ifstream cpuinfo("/proc/cpuinfo");
  int siblings = 0, cores_per_socket = 0, family = -1, model = -1;
  double mhz = 0;
  std::string vendor;
  for (std::string line; std::getline(cpuinfo, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = Trim(line.substr(0, colon)), value = Trim(line.substr(colon + 1));
    if (key == "model name" && info.model_name.empty()) info.model_name = value;
    if (key == "cpu MHz" && mhz == 0) mhz = std::strtod(value.c_str(), nullptr);
    if (key == "siblings" && siblings == 0) siblings = std::atoi(value.c_str());
    if (key == "cpu cores" && cores_per_socket == 0) cores_per_socket = std::atoi(value.c_str());
    if (key == "vendor_id" && vendor.empty()) vendor = value;
    if (key == "cpu family" && family < 0) family = std::atoi(value.c_str());
    if (key == "model" && model < 0) model = std::atoi(value.c_str());
  }
  if (info.model_name.empty()) info.model_name = Tr("unknown CPU");
  if (siblings > 0 && cores_per_socket > 0 && siblings > cores_per_socket) {
    info.physical_cores = std::max(1, info.logical_cpus * cores_per_socket / siblings);
    info.assumptions.push_back(TrF("SMT: {0} hardware threads per core share one core's FMA units",
                                   {std::to_string(siblings / cores_per_socket)}));
  }
  // The clock: cpufreq's maximum (the boost clock) where the OS has it, else measured.
  const double max_khz = std::strtod(ReadFirstLine("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq").c_str(), nullptr);
  if (max_khz > 0) {
    info.clock_hz = max_khz * 1e3;
    info.assumptions.push_back(
        Tr("clock: cpufreq's maximum, the boost clock (all-core boost under AVX-512 load can be lower)"));
  } else if (const double measured = MeasuredClockHz(); measured > 0) {
    info.clock_hz = measured;
    info.assumptions.push_back(
        TrF("clock: {0} GHz measured by a chain of dependent adds (one cycle each), boost included; no cpufreq here",
            {FormatFixed(measured / 1e9, 2)}) +
        (mhz > 0 ? TrF(" and /proc/cpuinfo says {0} GHz (the nominal clock)", {FormatFixed(mhz / 1e3, 2)})
                 : std::string()));
  } else if (mhz > 0) {
    info.clock_hz = mhz * 1e6;
    info.assumptions.push_back(
        Tr("clock: /proc/cpuinfo 'cpu MHz' (no cpufreq, as in most VMs): the base or current "
           "clock, so a measured peak above the derived one means the core boosts"));
  } else {
    info.assumptions.push_back(Tr("clock unknown: no theoretical peak derived"));
  }
  // FMAs per core per cycle at the ISA's width: from the microarchitecture where it is known.
  if (k.fma_units_assumed == 0) {
    info.assumptions.push_back(Tr("no FMA in the ISA used: no theoretical peak derived"));
  } else if (const std::optional<FmaDatapath> dp = KnownDatapath(vendor, family, model, info.model_name)) {
    info.fma_units = std::max(1, dp->pipes * std::min(dp->bits, info.simd_bits) / info.simd_bits);
    info.assumptions.push_back(
        TrF("FMA: {0} (family {1}, model {2}): {3} FMA pipes of {4} bits, so {5} {6}-bit FMA "
            "per cycle (vendor optimisation guides)",
            {dp->name, std::to_string(family), std::to_string(model), std::to_string(dp->pipes),
             std::to_string(dp->bits), std::to_string(info.fma_units), std::to_string(info.simd_bits)}));
  } else {
    info.fma_units = k.fma_units_assumed;
    info.assumptions.push_back(
        TrF("FMA units per core: {0} assumed: the microarchitecture ({1}, family {2}, model {3}) is not in the table, "
            "and some parts have 1 (or split 512-bit FMAs in two)",
            {std::to_string(info.fma_units), vendor.empty() ? std::string(Tr("unknown vendor")) : vendor,
             std::to_string(family), std::to_string(model)}));
  }
  if (info.clock_hz > 0 && info.fma_units > 0) {
    // cores x clock x lanes x 2 FLOP per FMA x FMA units (Williams et al. 2009, the compute roof).
    const double per_lane = static_cast<double>(info.physical_cores) * info.clock_hz * 2.0 * info.fma_units;
    info.peak_flops_fp32 = per_lane * (info.simd_bits / 32);
    info.peak_flops_fp64 = per_lane * (info.simd_bits / 64);
  }
  return info;
#endif
}

double DefaultStreamArrayBytes() {
  double llc = 0;
  for (const CacheLevel& c : ReportedCacheLevels()) llc = std::max(llc, c.size_bytes);
  double bytes = std::max(4.0 * llc, 64 * kMiB);
  bytes = std::min(bytes, 512 * kMiB);
  if (const double mem = PhysicalMemoryBytes(); mem > 0) bytes = std::min(bytes, std::max(mem / 24, 8 * kMiB));
  return bytes;
}

// [SECTION] STREAM -----------------------------------------------------------------------------
namespace {

// STREAM's layout (three static arrays back to back, OFFSET doubles apart), on the heap: one
// block, each array starting 64-byte aligned and 1 KiB + 64 B after a page multiple of the
// previous one, so the three never share address bits 0..11 (no 4K aliasing between a
// store to one array and a load from the next). The bench's plain reference uses the same.
constexpr size_t kStaggerDoubles = (1024 + 64) / sizeof(double);

size_t ArrayStride(size_t n) { return (n + 511) / 512 * 512 + kStaggerDoubles; }

}  // namespace

Result<std::vector<StreamResult>> MeasureStream(const StreamOptions& options) {
  const int threads = ResolveThreads(options.threads);
  const int reps = std::max(2, options.repetitions);
  const double array_bytes = options.array_bytes > 0 ? options.array_bytes : DefaultStreamArrayBytes();
  const size_t n = std::max<size_t>(static_cast<size_t>(array_bytes / sizeof(double)) / kLineDoubles * kLineDoubles,
                                    kLineDoubles * static_cast<size_t>(threads));
  const size_t stride = ArrayStride(n);
  AlignedBuffer block;
  if (!block.Allocate(3 * stride * sizeof(double)))
    return Error{TrF("stream: cannot allocate 3 arrays of {0} MiB", {std::to_string(n * sizeof(double) / 1048576)})};
  double* const a = block.As<double>();
  double* const b = a + stride;
  double* const c = a + 2 * stride;
  const double scalar = 3.0;
  const Kernels& k = ActiveKernels();

  // seconds[kernel][rep], written by thread 0 between barriers.
  std::vector<std::vector<double>> seconds(4, std::vector<double>(static_cast<size_t>(reps), 0.0));
  platform::Barrier barrier(threads);  // spins; yields past the CPUs (cpu_platform.h)
  platform::RunTeam(threads, platform::Shares::kLockstep, [&](int t) {
    size_t lo = 0, hi = 0;
    Chunk(n, threads, t, lo, hi);
    for (size_t j = lo; j < hi; ++j) {  // first touch, STREAM's initial values
      a[j] = 1.0;
      b[j] = 2.0;
      c[j] = 0.0;
    }
    const size_t len = hi - lo;
    for (int rep = 0; rep < reps; ++rep) {
      for (int kernel = 0; kernel < 4; ++kernel) {
        barrier.Wait();
        const double start = t == 0 ? Now() : 0;
        switch (kernel) {
          case 0: k.copy(c + lo, a + lo, len); break;
          case 1: k.scale(b + lo, c + lo, scalar, len); break;
          case 2: k.add(c + lo, a + lo, b + lo, len); break;
          default: k.triad(a + lo, b + lo, c + lo, scalar, len); break;
        }
        barrier.Wait();
        if (t == 0) seconds[static_cast<size_t>(kernel)][static_cast<size_t>(rep)] = Now() - start;
      }
    }
  });

  // STREAM's checkSTREAMresults: replay the recurrence on scalars and compare a sample.
  double aj = 1.0, bj = 2.0, cj = 0.0;
  for (int rep = 0; rep < reps; ++rep) {
    cj = aj;
    bj = scalar * cj;
    cj = aj + bj;
    aj = bj + scalar * cj;
  }
  const size_t step = std::max<size_t>(1, n / 4099);
  for (size_t j = 0; j < n; j += step) {
    const double errs[3] = {std::fabs(a[j] - aj) / aj, std::fabs(b[j] - bj) / bj, std::fabs(c[j] - cj) / cj};
    if (!(errs[0] < 1e-13 && errs[1] < 1e-13 && errs[2] < 1e-13))
      return Error{TrF("stream: wrong result at element {0} (the kernels are broken)", {std::to_string(j)})};
  }

  static const char* const kNames[4] = {"copy", "scale", "add", "triad"};
  static const double kBytesPerElement[4] = {16, 16, 24, 24};  // McCalpin's count
  std::vector<StreamResult> out;
  for (size_t kernel = 0; kernel < 4; ++kernel) {
    // The first repetition is not counted (STREAM: "the first iteration is skipped").
    double best = 1e300, sum = 0;
    for (size_t rep = 1; rep < seconds[kernel].size(); ++rep) {
      best = std::min(best, seconds[kernel][rep]);
      sum += seconds[kernel][rep];
    }
    const double bytes = kBytesPerElement[kernel] * static_cast<double>(n);
    StreamResult r;
    r.kernel = kNames[kernel];
    r.bytes_per_s = best > 0 ? bytes / best : 0;
    r.avg_bytes_per_s = sum > 0 ? bytes / (sum / (reps - 1)) : 0;
    r.array_bytes = static_cast<double>(n * sizeof(double));
    r.bytes_per_element = kBytesPerElement[kernel];
    r.threads = threads;
    r.repetitions = reps - 1;
    out.push_back(r);
  }
  return out;
}

// [SECTION] Working-set sweep and the plateau detector -----------------------------------------

Result<std::vector<SweepPoint>> MeasureReadSweep(const SweepOptions& options, const std::function<void(double)>& on_point) {
  const int threads = ResolveThreads(options.threads);
  const int samples = std::max(1, options.samples);
  const double min_bytes = std::max(options.min_bytes, 1024.0);
  double max_bytes = options.max_bytes;
  if (max_bytes <= 0) {
    double llc = 0;
    for (const CacheLevel& c : ReportedCacheLevels()) llc = std::max(llc, c.size_bytes);
    max_bytes = std::clamp(4.0 * llc, 64 * kMiB, 512 * kMiB);
  }
  max_bytes = std::max(max_bytes, min_bytes);
  const int steps = std::clamp(options.steps_per_octave, 1, 16);

  // Sizes 2^(k/steps) x min, rounded to 512 B (a whole accumulator step of the widest sum).
  std::vector<size_t> sizes;
  for (int i = 0;; ++i) {
    const double s = min_bytes * std::exp2(static_cast<double>(i) / steps);
    if (s > max_bytes * 1.0001) break;
    const size_t doubles = std::max<size_t>(64, static_cast<size_t>(s / sizeof(double)) / 64 * 64);
    if (sizes.empty() || doubles != sizes.back()) sizes.push_back(doubles);
  }
  const size_t max_doubles = sizes.back();

  std::vector<AlignedBuffer> buffers(static_cast<size_t>(threads));
  std::atomic<bool> alloc_failed{false};
  std::vector<double> sinks(static_cast<size_t>(threads), 0.0);
  std::vector<SweepPoint> points(sizes.size());
  const Kernels& k = ActiveKernels();
  platform::Barrier barrier(threads);  // spins; yields past the CPUs (cpu_platform.h)
  // Shared decisions, written by thread 0 between two barriers and read after the second.
  int64_t passes = 1;
  bool sample_done = false;

  platform::RunTeam(threads, platform::Shares::kLockstep, [&](int t) {
    AlignedBuffer& buffer = buffers[static_cast<size_t>(t)];
    double* const buf = buffer.Allocate(max_doubles * sizeof(double)) ? buffer.As<double>() : nullptr;
    if (buf != nullptr) {
      for (size_t j = 0; j < max_doubles; ++j) buf[j] = 1.0 + static_cast<double>(j & 7);  // first touch
    } else {
      alloc_failed = true;
    }
    barrier.Wait();
    if (alloc_failed) return;
    double sink = 0;
    for (size_t si = 0; si < sizes.size(); ++si) {
      const size_t m = sizes[si];
      if (t == 0) passes = 1;
      double best = 1e300;
      int taken = 0;
      for (;;) {
        barrier.Wait();
        const double start = t == 0 ? Now() : 0;
        for (int64_t p = 0; p < passes; ++p) sink += k.sum(buf, m);
        barrier.Wait();
        if (t == 0) {
          const double dt = Now() - start;
          if (dt < options.min_sample_s) {
            // Too short to time: scale the pass count up (calibration samples are not kept).
            const double grow = dt > 0 ? std::ceil(options.min_sample_s / dt * 1.25) : 16.0;
            passes = static_cast<int64_t>(static_cast<double>(passes) * std::clamp(grow, 2.0, 1024.0));
            sample_done = false;
          } else {
            best = std::min(best, dt / static_cast<double>(passes));
            sample_done = ++taken >= samples;
          }
        }
        barrier.Wait();
        if (sample_done) break;
      }
      if (t == 0) {
        const double bytes = static_cast<double>(m * sizeof(double));
        points[si] = {bytes, bytes * threads / best};
        if (on_point) on_point(static_cast<double>(si + 1) / static_cast<double>(sizes.size()));
      }
    }
    sinks[static_cast<size_t>(t)] = sink;
  });
  if (alloc_failed)
    return Error{
        TrF("sweep: cannot allocate {0} MiB per thread", {std::to_string(max_doubles * sizeof(double) / 1048576)})};
  for (double s : sinks)
    if (!std::isfinite(s)) return Error{Tr("sweep: the read kernel summed to a non-finite value")};
  return points;
}

namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

struct Plateau {
  size_t first = 0, last = 0;  // indices into the sorted points
  std::vector<double> values;
  double Level() const { return Median(values); }
};

bool Near(double x, double level, double tolerance) { return std::fabs(x / level - 1.0) <= tolerance; }

}  // namespace

SweepLevels DetectCacheLevels(const std::vector<SweepPoint>& input, double tolerance) {
  std::vector<SweepPoint> p;
  for (const SweepPoint& s : input)
    if (s.size_bytes > 0 && s.bytes_per_s > 0 && std::isfinite(s.size_bytes) && std::isfinite(s.bytes_per_s))
      p.push_back(s);
  std::sort(p.begin(), p.end(), [](const SweepPoint& a, const SweepPoint& b) { return a.size_bytes < b.size_bytes; });

  // 1. Runs: three or more points in a row at one level (within `tolerance` of the run's
  //    median). One point off the level with the next one back on it is noise (a timer
  //    tick, a neighbour on the host), not the end of the run.
  std::vector<Plateau> runs;
  size_t i = 0;
  while (i < p.size()) {
    if (i + 1 >= p.size() || !Near(p[i + 1].bytes_per_s, p[i].bytes_per_s, tolerance)) {
      ++i;  // a transition point
      continue;
    }
    Plateau run{i, i + 1, {p[i].bytes_per_s, p[i + 1].bytes_per_s}};
    size_t j = i + 2;
    while (j < p.size()) {
      const double level = run.Level();
      if (Near(p[j].bytes_per_s, level, tolerance)) {
        run.values.push_back(p[j].bytes_per_s);
        run.last = j++;
      } else if (j + 1 < p.size() && Near(p[j + 1].bytes_per_s, level, tolerance)) {
        ++j;  // a lone outlier: skip it, the run goes on
      } else {
        break;
      }
    }
    if (run.values.size() >= 3) runs.push_back(run);
    i = run.last + 1;
  }

  // 2. Levels: a new level starts only where the rate falls by more than the tolerance. A run
  //    at the same rate or faster belongs to the level before it (noise cut it off, or the
  //    rate rises: the timing overhead of the smallest sizes, or the bump some cores show
  //    just below a cache's size). A level's rate is that of its longest run.
  struct Level {
    size_t first = 0, last = 0;
    const Plateau* longest = nullptr;
    double Rate() const { return longest->Level(); }
  };
  std::vector<Level> levels;
  for (const Plateau& r : runs) {
    if (levels.empty() || r.Level() < levels.back().Rate() * (1 - tolerance)) {
      levels.push_back({r.first, r.last, &r});
      continue;
    }
    Level& l = levels.back();
    l.last = r.last;
    if (r.values.size() > l.longest->values.size()) l.longest = &r;
  }
  // A level goes on while the rate stays at it or above; it must then span 2 octaves: a
  // cache level is wider (L1 4 to 48 KiB, L2 to 1-2 MiB, L3 to tens of MiB), a flat stretch
  // of a slow decline past a cache (partial hits) is not.
  std::vector<Level> kept;
  for (Level l : levels) {
    while (l.last + 1 < p.size() && p[l.last + 1].bytes_per_s >= l.Rate() * (1 - tolerance)) ++l.last;
    if (p[l.last].size_bytes >= 4.0 * p[l.first].size_bytes * (1 - 1e-9)) kept.push_back(l);
  }

  SweepLevels out;
  if (kept.empty()) return out;
  const bool last_reaches_end = kept.back().last + 1 == p.size();
  for (size_t k = 0; k < kept.size(); ++k) {
    if (k + 1 == kept.size() && last_reaches_end) break;  // the last plateau is memory
    out.caches.push_back({static_cast<int>(k + 1), p[kept[k].last].size_bytes, kept[k].Rate()});
  }
  if (last_reaches_end) {
    out.memory_bytes_per_s = kept.back().Rate();
  } else {
    // The curve never settled after the last cache: the median of its last octave.
    std::vector<double> tail;
    for (const SweepPoint& s : p)
      if (s.size_bytes * 2 > p.back().size_bytes) tail.push_back(s.bytes_per_s);
    out.memory_bytes_per_s = Median(tail);
  }
  return out;
}

// [SECTION] FMA peak ---------------------------------------------------------------------------

std::vector<FlopsPoint> MeasureFmaPeak(int max_threads, double min_sample_s, int samples) {
  const int top = ResolveThreads(max_threads);
  const Kernels& k = ActiveKernels();
  samples = std::max(1, samples);
  // One calibration on one thread, used for every thread count: the chains never touch
  // memory, so the same count takes the same time on each core.
  const auto calibrate = [&](double (*fn)(int64_t, float)) {
    int64_t n = 1024;
    volatile double sink = 0;
    for (;;) {
      const double start = Now();
      sink = sink + fn(n, 1.0f);
      const double dt = Now() - start;
      if (dt >= min_sample_s || n > (int64_t{1} << 40)) break;
      const double grow = dt > 0 ? std::ceil(min_sample_s / dt * 1.1) : 16.0;
      n = static_cast<int64_t>(static_cast<double>(n) * std::clamp(grow, 2.0, 1024.0));
    }
    return n;
  };
  const int64_t n32 = calibrate(k.fma32), n64 = calibrate(k.fma64);

  std::vector<FlopsPoint> out;
  for (int threads = 1; threads <= top; ++threads) {
    FlopsPoint point;
    point.threads = threads;
    for (int precision = 0; precision < 2; ++precision) {
      const auto fn = precision == 0 ? k.fma32 : k.fma64;
      const int64_t n = precision == 0 ? n32 : n64;
      const double flop_per_it = precision == 0 ? k.flop32_per_iteration : k.flop64_per_iteration;
      platform::Barrier barrier(threads);  // spins; yields past the CPUs (cpu_platform.h)
      double best = 1e300;
      std::vector<double> sinks(static_cast<size_t>(threads), 0.0);
      platform::RunTeam(threads, platform::Shares::kLockstep, [&](int t) {
        for (int s = 0; s < samples; ++s) {
          barrier.Wait();
          const double start = t == 0 ? Now() : 0;
          sinks[static_cast<size_t>(t)] += fn(n, 1.0f + static_cast<float>(s));
          barrier.Wait();
          if (t == 0) best = std::min(best, Now() - start);
        }
      });
      const double flops = best > 0 ? flop_per_it * static_cast<double>(n) * threads / best : 0;
      bool finite = true;
      for (double s : sinks) finite = finite && std::isfinite(s);
      (precision == 0 ? point.fp32_flops_per_s : point.fp64_flops_per_s) = finite ? flops : 0;
    }
    out.push_back(point);
  }
  return out;
}

// [SECTION] RunCpuProbe ------------------------------------------------------------------------

const StreamResult* CpuProbeResult::FindStream(const std::string& kernel) const {
  for (const StreamResult& s : stream)
    if (s.kernel == kernel) return &s;
  return nullptr;
}

namespace {

std::string UtcNowIso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
#if defined(_WIN32)
  gmtime_s(&tm, &now);
#else
  gmtime_r(&now, &tm);
#endif
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}


}  // namespace

Result<CpuProbeResult> RunCpuProbe(const CpuProbeOptions& options, const CpuProbeProgress& progress) {
  CpuProbeResult r;
  r.date = UtcNowIso8601();
  r.quick = options.quick;
  r.cpu = DetectCpu();
  r.reported_caches = ReportedCacheLevels();
  const auto report = [&](const char* stage, double fraction) {
    if (progress) progress(stage, std::clamp(fraction, 0.0, 1.0));
  };
  // Shares of the whole run, for the progress line (full mode on a 2-core Zen 5: ~35/45/20).
  constexpr double kSweepShare = 0.35, kStreamShare = 0.45;

  if (options.run_sweep) {
    SweepOptions s;
    s.threads = options.sweep_threads;
    if (options.quick) {
      s.max_bytes = 2 * kMiB;
      s.steps_per_octave = 2;
      s.min_sample_s = 2e-4;
      s.samples = 2;
    }
    if (options.sweep_max_bytes > 0) s.max_bytes = options.sweep_max_bytes;
    report("sweep", 0);
    Result<std::vector<SweepPoint>> sweep = MeasureReadSweep(s, [&](double f) { report("sweep", f * kSweepShare); });
    if (!sweep) return Error{sweep.error()};
    r.sweep = std::move(sweep.value());
    r.sweep_threads = ResolveThreads(s.threads);
    const SweepLevels levels = DetectCacheLevels(r.sweep);
    r.measured_caches = levels.caches;
    r.memory_read_bytes_per_s = levels.memory_bytes_per_s;
  }

  if (options.run_stream) {
    StreamOptions s;
    s.threads = options.threads;
    // Quick or not, arrays well past the last-level cache: 4 MiB ones sat in cache and read
    // 2.7-186 GB/s from run to run. Quick only does without the sweep's measured LLC.
    s.array_bytes = options.array_bytes > 0 ? options.array_bytes : DefaultStreamArrayBytes();
    if (options.array_bytes <= 0 && !options.quick && !r.measured_caches.empty()) {
      // The LLC the sweep found, not the reported one (a VM can report the host socket's):
      // 8x its plateau end, since a plateau ends up to 2x below the cache's size (partial
      // hits), so that STREAM's 4x rule holds; at least 64 MiB, at most the default.
      const double llc = r.measured_caches.back().size_bytes;
      s.array_bytes = std::min(s.array_bytes, std::max(8 * llc, 64 * kMiB));
    }
    s.repetitions = options.quick ? 5 : 10;
    report("stream", kSweepShare);
    Result<std::vector<StreamResult>> stream = MeasureStream(s);
    if (!stream) return Error{stream.error()};
    r.stream = std::move(stream.value());
    // STREAM's rule: each array at least 4x the LLC. Judge by the measured LLC when the sweep
    // found one (a VM may report the host socket's), else by the reported one.
    double llc = 0;
    for (const CacheLevel& c : r.measured_caches) llc = std::max(llc, c.size_bytes);
    const bool measured = llc > 0;
    if (!measured)
      for (const CacheLevel& c : r.reported_caches) llc = std::max(llc, c.size_bytes);
    const double array = r.stream.front().array_bytes;
    if (llc > 0 && array < 4 * llc)
      r.notes.push_back(
          measured ? TrF("STREAM arrays of {0} are less than 4x the measured LLC ({1}): cache shares the rates",
                         {FormatBytes(array, ByteUnit::MiB, 1), FormatBytes(llc, ByteUnit::MiB, 1)})
                   : TrF("STREAM arrays of {0} are less than 4x the reported LLC ({1}): cache shares the rates",
                         {FormatBytes(array, ByteUnit::MiB, 1), FormatBytes(llc, ByteUnit::MiB, 1)}));
  }

  if (options.run_fma) {
    report("fma", kSweepShare + kStreamShare);
    // Best of 10 in full mode: on a shared VM single samples swing by 2x (seen here).
    r.fma = MeasureFmaPeak(options.threads, options.quick ? 5e-3 : 20e-3, options.quick ? 5 : 10);
  }
  if (!r.reported_caches.empty() && !r.measured_caches.empty() &&
      r.reported_caches.back().size_bytes > 4 * r.measured_caches.back().size_bytes)
    r.notes.push_back(
        TrF("the reported LLC ({0}) is far above the measured one ({1}): in a VM it can be the host "
            "socket's total, not the slice this core reaches",
            {FormatBytes(r.reported_caches.back().size_bytes, ByteUnit::MiB, 1),
             FormatBytes(r.measured_caches.back().size_bytes, ByteUnit::MiB, 1)}));
  report("done", 1);
  return r;
}

// [SECTION] JSON -------------------------------------------------------------------------------
namespace {

using nlohmann::json;
constexpr const char* kSchema = "gpuplan.cpu-probe/1";

// Only finite numbers go into the file (nlohmann would write NaN as null).
double Finite(double v) { return std::isfinite(v) ? v : 0; }

json Metric(double value, const char* unit, const std::string& method) {
  return json{{"value", Finite(value)}, {"unit", unit}, {"method", method}};
}

const char* const kStreamMethod =
    "McCalpin STREAM: best rate of the repetitions after the first; copy/scale count 16 B and add/triad 24 B per "
    "element (write-allocate traffic not counted); each thread owns a contiguous chunk it touched first; "
    "regular stores (no non-temporal stores)";

}  // namespace

std::string CpuProbeToJson(const CpuProbeResult& r) {
  json doc;
  doc["schema"] = kSchema;
  doc["date"] = r.date;
  doc["quick"] = r.quick;
  json cpu;
  cpu["model_name"] = r.cpu.model_name;
  cpu["logical_cpus"] = r.cpu.logical_cpus;
  cpu["physical_cores"] = r.cpu.physical_cores;
  cpu["clock_hz"] = Finite(r.cpu.clock_hz);
  cpu["simd_bits"] = r.cpu.simd_bits;
  cpu["isa"] = r.cpu.isa;
  cpu["fma_units"] = r.cpu.fma_units;
  const std::string peak_method = "derived: physical cores x clock x SIMD lanes x 2 FLOP per FMA x FMA units (0: unknown)";
  cpu["peak_flops_fp32"] = Metric(r.cpu.peak_flops_fp32, "FLOP/s", peak_method);
  cpu["peak_flops_fp64"] = Metric(r.cpu.peak_flops_fp64, "FLOP/s", peak_method);
  cpu["assumptions"] = r.cpu.assumptions;
  doc["cpu"] = cpu;

  json stream = json::array();
  for (const StreamResult& s : r.stream)
    stream.push_back({{"kernel", s.kernel},
                      {"bytes_per_s", Finite(s.bytes_per_s)},
                      {"avg_bytes_per_s", Finite(s.avg_bytes_per_s)},
                      {"unit", "B/s"},
                      {"array_bytes", Finite(s.array_bytes)},
                      {"bytes_per_element", Finite(s.bytes_per_element)},
                      {"threads", s.threads},
                      {"repetitions", s.repetitions},
                      {"method", kStreamMethod}});
  doc["stream"] = stream;

  json reported = json::array(), measured = json::array(), points = json::array();
  for (const CacheLevel& c : r.reported_caches)
    reported.push_back({{"level", c.level}, {"size_bytes", Finite(c.size_bytes)}, {"unit", "B"},
                        {"method", "OS: /sys/devices/system/cpu/cpu0/cache, else sysconf (CPUID)"}});
  for (const CacheLevel& c : r.measured_caches)
    measured.push_back({{"level", c.level}, {"size_bytes", Finite(c.size_bytes)}, {"bytes_per_s", Finite(c.bytes_per_s)},
                        {"unit", "B, B/s"},
                        {"method", "end of a read-bandwidth plateau in the sweep (largest working set at the level's "
                                   "median rate, within 12%); the rate is the plateau's median"}});
  for (const SweepPoint& p : r.sweep) points.push_back({{"size_bytes", Finite(p.size_bytes)}, {"bytes_per_s", Finite(p.bytes_per_s)}});
  doc["caches"] = {{"reported", reported}, {"measured", measured}};
  doc["sweep"] = {{"threads", r.sweep_threads},
                  {"unit", "B/s"},
                  {"method", "read bandwidth: sum over a per-thread buffer with independent vector accumulators; "
                             "each sample >= 2 ms, best of 3; sizes 2^(k/4) from 4 KiB"},
                  {"points", points}};
  doc["memory_read_bytes_per_s"] =
      Metric(r.memory_read_bytes_per_s, "B/s", "the sweep's last plateau: DRAM read bandwidth when the sweep left the LLC");

  json fma = json::array();
  for (const FlopsPoint& f : r.fma)
    fma.push_back({{"threads", f.threads}, {"fp32_flops_per_s", Finite(f.fp32_flops_per_s)},
                   {"fp64_flops_per_s", Finite(f.fp64_flops_per_s)}});
  doc["fma"] = {{"unit", "FLOP/s"},
                {"method", "measured: independent multiply-add chains in registers (16 vector accumulators), 2 FLOP "
                           "per lane per FMA, best of 3; wasm SIMD128 has no FMA and counts a multiply and an add"},
                {"isa", r.cpu.isa},
                {"points", fma}};
  json gemm = json::array();
  for (const GemmRate& g : r.gemm)
    gemm.push_back({{"n", g.n}, {"threads", g.threads}, {"flops_per_s", Finite(g.flops_per_s)}, {"kernel", g.kernel}});
  doc["gemm"] = {{"unit", "FLOP/s"},
                 {"method", "gpuplan's reference SGEMM (packed, blocked, SIMD; gemm.h) on N×N×N row-major FP32, "
                            "2·N³ FLOPs, the median of repetitions after two warm-up runs"},
                 {"points", gemm}};
  doc["notes"] = r.notes;
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

namespace {

// Field readers for the probe file that name what is wrong: "stream[2].bytes_per_s is -1 ...".
// Missing optional fields read as 0; a present field of the wrong type is an error.
class FieldReader {
 public:
  // A number field. `rule`: 0 any finite, 1 >= 0, 2 > 0.
  bool Number(const json& obj, const char* key, const std::string& path, double& out, bool required, int rule) {
    auto it = obj.find(key);
    const std::string name = path + key;
    if (it == obj.end() || it->is_null()) {
      if (required) return Fail(TrF("{0} is missing", {name}));
      out = 0;
      return true;
    }
    const json* v = &*it;
    if (v->is_object()) {  // a metric: {"value": ..., "unit": ..., "method": ...}
      auto value = v->find("value");
      if (value == v->end()) return Fail(TrF("{0}.value is missing", {name}));
      v = &*value;
    }
    if (!v->is_number()) return Fail(TrF("{0} must be a number, not {1}", {name, v->dump()}));
    const double x = v->get<double>();
    if (!std::isfinite(x) || (rule == 1 && x < 0) || (rule == 2 && !(x > 0)))
      return Fail(TrF("{0} is {1}: it must be {2}", {name, v->dump(),
                                                     rule == 2   ? Tr("positive")
                                                     : rule == 1 ? Tr("zero or positive")
                                                                 : Tr("finite")}));
    // The limit before the value is used or cast (limits.h): no probe measures 10^18 of anything.
    if (std::abs(x) > static_cast<double>(limits::kProbeValue.max))
      return Fail(TrF("{0} is {1}, {2}", {name, v->dump(), limits::Above(limits::kProbeValue)}));
    out = x;
    return true;
  }
  bool Int(const json& obj, const char* key, const std::string& path, int& out) {
    double v = 0;
    if (!Number(obj, key, path, v, false, 1)) return false;
    if (v != std::floor(v)) return Fail(TrF("{0} must be a whole number", {path + key}));
    if (v > static_cast<double>(limits::kProbeCount.max))
      return Fail(TrF("{0} is {1}, {2}", {path + key, FormatShort(v, 0), limits::Above(limits::kProbeCount)}));
    out = static_cast<int>(v);
    return true;
  }
  // An array field: absent reads as empty; anything but an array is an error.
  const json* Array(const json& obj, const char* key, const std::string& path) {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return &empty_;
    if (!it->is_array()) {
      Fail(TrF("{0} must be an array", {path + key}));
      return nullptr;
    }
    return &*it;
  }
  const json* Object(const json& obj, const char* key, const std::string& path) {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return &empty_object_;
    if (!it->is_object()) {
      Fail(TrF("{0} must be an object", {path + key}));
      return nullptr;
    }
    return &*it;
  }
  bool Fail(const std::string& message) {
    if (error_.empty()) error_ = message;
    return false;
  }
  const std::string& error() const { return error_; }

 private:
  std::string error_;
  const json empty_ = json::array();
  const json empty_object_ = json::object();
};

std::string Index(const char* name, size_t i) { return std::string(name) + "[" + std::to_string(i) + "]."; }

}  // namespace

Result<CpuProbeResult> CpuProbeFromJson(const std::string& text) {
  using detail::JsonString;
  const json doc = detail::ParseJson(text);
  if (doc.is_discarded()) return Error{Tr("cpu probe file: ") + detail::JsonErrorAt(text)};
  if (!doc.is_object()) return Error{std::string(Tr("cpu probe file: ")) + Tr("not a JSON object")};
  if (JsonString(doc, "schema") != kSchema)
    return Error{Tr("cpu probe file: ") +
                 TrF("schema '{0}' is not {1} (written by gpuplan probe cpu)", {JsonString(doc, "schema"), kSchema})};
  CpuProbeResult r;
  FieldReader f;
  const auto fail = [&] { return Error{Tr("cpu probe file: ") + f.error()}; };
  r.date = JsonString(doc, "date");
  if (auto q = doc.find("quick"); q != doc.end() && q->is_boolean()) r.quick = q->get<bool>();

  const json* cpu = f.Object(doc, "cpu", "");
  if (!cpu) return fail();
  r.cpu.model_name = JsonString(*cpu, "model_name");
  r.cpu.isa = JsonString(*cpu, "isa");
  if (!f.Int(*cpu, "logical_cpus", "cpu.", r.cpu.logical_cpus) || !f.Int(*cpu, "physical_cores", "cpu.", r.cpu.physical_cores) ||
      !f.Number(*cpu, "clock_hz", "cpu.", r.cpu.clock_hz, false, 1) || !f.Int(*cpu, "simd_bits", "cpu.", r.cpu.simd_bits) ||
      !f.Int(*cpu, "fma_units", "cpu.", r.cpu.fma_units) ||
      !f.Number(*cpu, "peak_flops_fp32", "cpu.", r.cpu.peak_flops_fp32, false, 1) ||
      !f.Number(*cpu, "peak_flops_fp64", "cpu.", r.cpu.peak_flops_fp64, false, 1))
    return fail();
  const json* assumptions = f.Array(*cpu, "assumptions", "cpu.");
  if (!assumptions) return fail();
  for (const json& a : *assumptions)
    if (a.is_string()) r.cpu.assumptions.push_back(a.get<std::string>());

  const json* stream = f.Array(doc, "stream", "");
  if (!stream) return fail();
  for (size_t i = 0; i < stream->size(); ++i) {
    const json& s = (*stream)[i];
    const std::string path = Index("stream", i);
    if (!s.is_object())
      return Error{Tr("cpu probe file: ") + TrF("{0} must be an object", {"stream[" + std::to_string(i) + "]"})};
    StreamResult x;
    x.kernel = JsonString(s, "kernel");
    if (x.kernel.empty()) return Error{Tr("cpu probe file: ") + TrF("{0} is missing", {path + "kernel"})};
    if (!f.Number(s, "bytes_per_s", path, x.bytes_per_s, true, 2) ||
        !f.Number(s, "avg_bytes_per_s", path, x.avg_bytes_per_s, false, 1) ||
        !f.Number(s, "array_bytes", path, x.array_bytes, false, 1) ||
        !f.Number(s, "bytes_per_element", path, x.bytes_per_element, false, 1) || !f.Int(s, "threads", path, x.threads) ||
        !f.Int(s, "repetitions", path, x.repetitions))
      return fail();
    r.stream.push_back(x);
  }

  const json* caches = f.Object(doc, "caches", "");
  if (!caches) return fail();
  for (const char* which : {"reported", "measured"}) {
    const std::string group = std::string("caches.") + which;
    const json* list = f.Array(*caches, which, "caches.");
    if (!list) return fail();
    for (size_t i = 0; i < list->size(); ++i) {
      const json& c = (*list)[i];
      const std::string path = group + "[" + std::to_string(i) + "].";
      if (!c.is_object())
        return Error{Tr("cpu probe file: ") + TrF("{0} must be an object", {group + "[" + std::to_string(i) + "]"})};
      CacheLevel level;
      if (!f.Int(c, "level", path, level.level) || !f.Number(c, "size_bytes", path, level.size_bytes, true, 2) ||
          !f.Number(c, "bytes_per_s", path, level.bytes_per_s, false, 1))
        return fail();
      (std::string(which) == "reported" ? r.reported_caches : r.measured_caches).push_back(level);
    }
  }

  const json* sweep = f.Object(doc, "sweep", "");
  if (!sweep) return fail();
  if (!f.Int(*sweep, "threads", "sweep.", r.sweep_threads)) return fail();
  if (r.sweep_threads == 0) r.sweep_threads = 1;
  const json* points = f.Array(*sweep, "points", "sweep.");
  if (!points) return fail();
  for (size_t i = 0; i < points->size(); ++i) {
    const json& p = (*points)[i];
    const std::string path = "sweep." + Index("points", i);
    if (!p.is_object())
      return Error{Tr("cpu probe file: ") + TrF("{0} must be an object", {path.substr(0, path.size() - 1)})};
    SweepPoint x;
    if (!f.Number(p, "size_bytes", path, x.size_bytes, true, 2) || !f.Number(p, "bytes_per_s", path, x.bytes_per_s, true, 2))
      return fail();
    r.sweep.push_back(x);
  }
  if (!f.Number(doc, "memory_read_bytes_per_s", "", r.memory_read_bytes_per_s, false, 1)) return fail();

  const json* fma = f.Object(doc, "fma", "");
  if (!fma) return fail();
  const json* fma_points = f.Array(*fma, "points", "fma.");
  if (!fma_points) return fail();
  for (size_t i = 0; i < fma_points->size(); ++i) {
    const json& p = (*fma_points)[i];
    const std::string path = "fma." + Index("points", i);
    if (!p.is_object())
      return Error{Tr("cpu probe file: ") + TrF("{0} must be an object", {path.substr(0, path.size() - 1)})};
    FlopsPoint x;
    if (!f.Int(p, "threads", path, x.threads) || !f.Number(p, "fp32_flops_per_s", path, x.fp32_flops_per_s, false, 1) ||
        !f.Number(p, "fp64_flops_per_s", path, x.fp64_flops_per_s, false, 1))
      return fail();
    r.fma.push_back(x);
  }
  const json* gemm = f.Object(doc, "gemm", "");
  if (!gemm) return fail();
  const json* gemm_points = f.Array(*gemm, "points", "gemm.");
  if (!gemm_points) return fail();
  for (size_t i = 0; i < gemm_points->size(); ++i) {
    const json& p = (*gemm_points)[i];
    const std::string path = "gemm." + Index("points", i);
    if (!p.is_object())
      return Error{Tr("cpu probe file: ") + TrF("{0} must be an object", {path.substr(0, path.size() - 1)})};
    GemmRate x;
    if (!f.Int(p, "n", path, x.n) || !f.Int(p, "threads", path, x.threads) ||
        !f.Number(p, "flops_per_s", path, x.flops_per_s, true, 2))
      return fail();
    x.kernel = detail::JsonString(p, "kernel");
    r.gemm.push_back(x);
  }
  const json* notes = f.Array(doc, "notes", "");
  if (!notes) return fail();
  for (const json& n : *notes)
    if (n.is_string()) r.notes.push_back(n.get<std::string>());
  return r;
}

}  // namespace gpuplan
