// native/cuda/probe_memory.cu — bandwidth probes: device memory (HBM/GDDR), L2, host<->device,
// peer to peer.
//
// Bytes are counted as the kernels move them: read = 1×, write = 1×, copy = 2× (read + write),
// triad a = b + s·c = 3× (two reads, one write) the array size; cudaMemcpy device-to-device
// counts read + write too, like STREAM and like PyTorch benchmarks of tensor.copy_().
//
// [SECTION] Kernels
// [SECTION] Device memory
// [SECTION] L2
// [SECTION] Host <-> device
// [SECTION] Peer to peer
#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>

#include "probe_cuda.cuh"

namespace gpuplan::probe {

namespace {

constexpr int kBlock = 256;
constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kGiB = size_t{1} << 30;

// [SECTION] Kernels --------------------------------------------------------------------------

__global__ void FillUnitKernel(float* p, size_t n, uint32_t seed) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) p[i] = HashUnit(i, seed);
}

// Every kernel below is grid-stride: a grid sized to fill the GPU once (blocks per SM from the
// occupancy calculator) walks the whole array; each thread issues U independent 16-byte
// accesses per iteration so enough bytes are in flight to saturate the memory system.
template <int U>
__global__ void __launch_bounds__(kBlock) ReadKernel(const float4* __restrict__ a, size_t n, float* sink) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (; i + (U - 1) * stride < n; i += U * stride) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = a[i + u * stride];
#pragma unroll
    for (int u = 0; u < U; ++u) acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n; i += stride) {
    const float4 v = a[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  // The data lie in [0, 1), so this store never happens, but the compiler cannot know that
  // and has to keep every load.
  if (acc < 0.0f) *sink = acc;
}

template <int U>
__global__ void __launch_bounds__(kBlock) WriteKernel(float4* __restrict__ a, size_t n, float value) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const float4 v = make_float4(value, value, value, value);
  for (; i + (U - 1) * stride < n; i += U * stride) {
#pragma unroll
    for (int u = 0; u < U; ++u) a[i + u * stride] = v;
  }
  for (; i < n; i += stride) a[i] = v;
}

template <int U, class T>
__global__ void __launch_bounds__(kBlock) CopyKernel(const T* __restrict__ src, T* __restrict__ dst, size_t n) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  for (; i + (U - 1) * stride < n; i += U * stride) {
    T v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = src[i + u * stride];
#pragma unroll
    for (int u = 0; u < U; ++u) dst[i + u * stride] = v[u];
  }
  for (; i < n; i += stride) dst[i] = src[i];
}

// One-pass variants: a grid as large as the array (no grid stride), each block moving one
// contiguous tile of kBlock × U elements, stores with the streaming hint (st.global.cs) so
// written lines are evicted first. DRAM sees long sequential runs per block, which is how
// PyTorch's elementwise copy behaves; the sweep keeps whichever variant is faster.
template <int U, class T>
__global__ void __launch_bounds__(kBlock) CopyOnePassKernel(const T* __restrict__ src, T* __restrict__ dst, size_t n) {
  const size_t base = size_t{blockIdx.x} * kBlock * U + threadIdx.x;
  T v[U];
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (base + u * kBlock < n) v[u] = src[base + u * kBlock];
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (base + u * kBlock < n) __stcs(dst + base + u * kBlock, v[u]);
}

template <int U>
__global__ void __launch_bounds__(kBlock) ReadOnePassKernel(const float4* __restrict__ a, size_t n, float* sink) {
  const size_t base = size_t{blockIdx.x} * kBlock * U + threadIdx.x;
  float acc = 0.0f;
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (base + u * kBlock < n) {
      const float4 v = a[base + u * kBlock];
      acc += (v.x + v.y) + (v.z + v.w);
    }
  if (acc < 0.0f) *sink = acc;
}

template <int U>
__global__ void __launch_bounds__(kBlock) WriteOnePassKernel(float4* __restrict__ a, size_t n, float value) {
  const size_t base = size_t{blockIdx.x} * kBlock * U + threadIdx.x;
  const float4 v = make_float4(value, value, value, value);
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (base + u * kBlock < n) __stcs(a + base + u * kBlock, v);
}

__device__ __forceinline__ float4 Triad(float4 b, float4 c, float s) {
  return make_float4(b.x + s * c.x, b.y + s * c.y, b.z + s * c.z, b.w + s * c.w);
}

template <int U>
__global__ void __launch_bounds__(kBlock)
    TriadOnePassKernel(float4* __restrict__ a, const float4* __restrict__ b, const float4* __restrict__ c, float s,
                       size_t n) {
  const size_t base = size_t{blockIdx.x} * kBlock * U + threadIdx.x;
  float4 vb[U], vc[U];
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (base + u * kBlock < n) {
      vb[u] = b[base + u * kBlock];
      vc[u] = c[base + u * kBlock];
    }
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (base + u * kBlock < n) __stcs(a + base + u * kBlock, Triad(vb[u], vc[u], s));
}

template <int U>
__global__ void __launch_bounds__(kBlock)
    TriadKernel(float4* __restrict__ a, const float4* __restrict__ b, const float4* __restrict__ c, float s, size_t n) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  for (; i + (U - 1) * stride < n; i += U * stride) {
    float4 vb[U], vc[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      vb[u] = b[i + u * stride];
      vc[u] = c[i + u * stride];
    }
#pragma unroll
    for (int u = 0; u < U; ++u) a[i + u * stride] = Triad(vb[u], vc[u], s);
  }
  for (; i < n; i += stride) a[i] = Triad(b[i], c[i], s);
}

// L2: `passes` reads of a working set that fits in L2, through ld.global.cg (cached in L2, not
// in L1). Each pass starts at a different offset (a multiple of 32 elements, so warps stay
// coalesced): no two passes load the same addresses in the same thread, so nothing can be
// reused from registers.
__global__ void __launch_bounds__(kBlock) L2ReadKernel(const float4* __restrict__ a, size_t n, int passes, float* sink) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  const size_t first = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int p = 0; p < passes; ++p) {
    const size_t shift = (size_t(p) * 4093u * 32u) % n;
#pragma unroll 4
    for (size_t i = first; i < n; i += stride) {
      size_t j = i + shift;
      if (j >= n) j -= n;
      const float4 v = __ldcg(a + j);
      acc += (v.x + v.y) + (v.z + v.w);
    }
  }
  if (acc < 0.0f) *sink = acc;
}

template <class Kernel>
int FullGrid(Kernel kernel, int sm_count) {
  int per_sm = 0;
  PROBE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, 0));
  return std::max(1, per_sm) * sm_count;
}

// [SECTION] Device memory ------------------------------------------------------------------------

enum class Pattern { kRead, kWrite, kCopy, kTriad, kCopyScalar };

struct Arrays {
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  float* sink = nullptr;
  size_t floats = 0;  // per array
};

// One launch configuration of one pattern, ready to enqueue.
struct Variant {
  int unroll = 1;
  int grid = 0;
  Pattern pattern = Pattern::kRead;
  bool one_pass = false;  // grid covers the array once (no grid stride), streaming stores
};

template <int U>
int GridFor(Pattern p, int sms) {
  switch (p) {
    case Pattern::kRead: return FullGrid(ReadKernel<U>, sms);
    case Pattern::kWrite: return FullGrid(WriteKernel<U>, sms);
    case Pattern::kCopy: return FullGrid(CopyKernel<U, float4>, sms);
    case Pattern::kTriad: return FullGrid(TriadKernel<U>, sms);
    case Pattern::kCopyScalar: return FullGrid(CopyKernel<U, float>, sms);
  }
  return sms;
}

template <int U>
void LaunchFor(const Variant& v, const Arrays& x, cudaStream_t s) {
  const size_t n4 = x.floats / 4;
  auto* a4 = reinterpret_cast<float4*>(x.a);
  auto* b4 = reinterpret_cast<float4*>(x.b);
  auto* c4 = reinterpret_cast<float4*>(x.c);
  if (v.one_pass) {
    const size_t per_block = size_t{kBlock} * U;
    const auto blocks = [&](size_t n) { return static_cast<unsigned>((n + per_block - 1) / per_block); };
    switch (v.pattern) {
      case Pattern::kRead: ReadOnePassKernel<U><<<blocks(n4), kBlock, 0, s>>>(a4, n4, x.sink); break;
      case Pattern::kWrite: WriteOnePassKernel<U><<<blocks(n4), kBlock, 0, s>>>(a4, n4, 1.0f); break;
      case Pattern::kCopy: CopyOnePassKernel<U, float4><<<blocks(n4), kBlock, 0, s>>>(b4, a4, n4); break;
      case Pattern::kTriad: TriadOnePassKernel<U><<<blocks(n4), kBlock, 0, s>>>(a4, b4, c4, 3.0f, n4); break;
      case Pattern::kCopyScalar:
        CopyOnePassKernel<U, float><<<blocks(x.floats), kBlock, 0, s>>>(x.b, x.a, x.floats);
        break;
    }
    return;
  }
  switch (v.pattern) {
    case Pattern::kRead: ReadKernel<U><<<v.grid, kBlock, 0, s>>>(a4, n4, x.sink); break;
    case Pattern::kWrite: WriteKernel<U><<<v.grid, kBlock, 0, s>>>(a4, n4, 1.0f); break;
    case Pattern::kCopy: CopyKernel<U, float4><<<v.grid, kBlock, 0, s>>>(b4, a4, n4); break;
    case Pattern::kTriad: TriadKernel<U><<<v.grid, kBlock, 0, s>>>(a4, b4, c4, 3.0f, n4); break;
    case Pattern::kCopyScalar: CopyKernel<U, float><<<v.grid, kBlock, 0, s>>>(x.b, x.a, x.floats); break;
  }
}

Variant MakeVariant(Pattern p, int unroll, int sms, bool one_pass = false) {
  Variant v{unroll, 0, p, one_pass};
  switch (unroll) {
    case 1: v.grid = GridFor<1>(p, sms); break;
    case 2: v.grid = GridFor<2>(p, sms); break;
    case 4: v.grid = GridFor<4>(p, sms); break;
    default: v.unroll = 8; v.grid = GridFor<8>(p, sms); break;
  }
  return v;
}

void Launch(const Variant& v, const Arrays& x, cudaStream_t s) {
  switch (v.unroll) {
    case 1: LaunchFor<1>(v, x, s); break;
    case 2: LaunchFor<2>(v, x, s); break;
    case 4: LaunchFor<4>(v, x, s); break;
    default: LaunchFor<8>(v, x, s); break;
  }
}

struct PatternInfo {
  Pattern pattern;
  const char* id;
  const char* name;
  const char* what;
  double bytes_factor;  // bytes moved per repetition / array bytes
};

constexpr PatternInfo kPatterns[] = {
    {Pattern::kRead, "hbm_read", N_("Device memory read"), "read of one array summed in registers", 1},
    {Pattern::kWrite, "hbm_write", N_("Device memory write"), "write of one array (constant value)", 1},
    {Pattern::kCopy, "hbm_copy", N_("Device memory copy"), "copy b -> a, counting read + write bytes", 2},
    {Pattern::kTriad, "hbm_triad", N_("Device memory triad"), "STREAM triad a = b + s*c, counting 2 reads + 1 write",
     3},
    {Pattern::kCopyScalar, "hbm_copy_scalar", N_("Device memory copy (4-byte loads)"),
     "copy b -> a with float (4-byte) accesses instead of float4, counting read + write bytes", 2},
};

// Array size: large against L2 (2 GiB each, 3 arrays for the triad), never more than an eighth
// of the free memory, so a 16 GB card fits too.
size_t ArrayBytes(const Context& ctx) {
  const size_t cap = ctx.options.quick ? 256 * kMiB : 2 * kGiB;
  size_t bytes = std::min(cap, ctx.free_bytes / 8);
  bytes -= bytes % (64 * kMiB);
  return bytes;
}

void ArraysFill(const Context& ctx, const Arrays& x) {
  const int grid = ctx.prop.multiProcessorCount * 8;
  FillUnitKernel<<<grid, kBlock, 0, ctx.stream>>>(x.a, x.floats, 1);
  FillUnitKernel<<<grid, kBlock, 0, ctx.stream>>>(x.b, x.floats, 2);
  FillUnitKernel<<<grid, kBlock, 0, ctx.stream>>>(x.c, x.floats, 3);
  PROBE_CUDA(cudaGetLastError());
  PROBE_CUDA(cudaStreamSynchronize(ctx.stream));
}

std::string Mib(size_t bytes) { return FormatBytes(static_cast<double>(bytes), ByteUnit::MiB, 0); }

}  // namespace

int PlannedMemorySteps(const Context& ctx) {
  int steps = 0;
  if (ctx.options.Wants("hbm")) steps += static_cast<int>(std::size(kPatterns)) + 1;
  if (ctx.options.Wants("l2")) steps += 1;
  if (ctx.options.Wants("host")) steps += 4;
  if (ctx.options.Wants("p2p")) steps += std::max(1, ctx.device_count - 1);
  return steps;
}

void ProbeDeviceMemory(Context& ctx) {
  const size_t bytes = ArrayBytes(ctx);
  if (bytes < 64 * kMiB) {
    for (const auto& p : kPatterns) ctx.Skipped(p.id, "not enough free device memory for 3 arrays of 64 MiB");
    ctx.Skipped("memcpy_d2d", "not enough free device memory");
    return;
  }
  DeviceBuffer a(bytes), b(bytes), c(bytes), sink(sizeof(float));
  Arrays x{a.as<float>(), b.as<float>(), c.as<float>(), sink.as<float>(), bytes / sizeof(float)};
  ArraysFill(ctx, x);
  const int sms = ctx.prop.multiProcessorCount;
  const double l2 = std::max(1, ctx.prop.l2CacheSize);
  const int unrolls[] = {1, 2, 4, 8};

  for (const auto& info : kPatterns) {
    ctx.Announce(info.name);
    // A short sweep over the unroll factor (warm-up 1, 3 repetitions each), then the full
    // measurement with the fastest one. The quick mode takes unroll 4 without a sweep.
    Variant best = MakeVariant(info.pattern, 4, sms);
    if (!ctx.options.quick) {
      double best_s = 1e30;
      for (const bool one_pass : {false, true})
        for (const int u : unrolls) {
          const Variant v = MakeVariant(info.pattern, u, sms, one_pass);
          const Timing t = TimeGpu(ctx, 1, 3, [&] { Launch(v, x, ctx.stream); });
          if (t.summary.median < best_s) {
            best_s = t.summary.median;
            best = v;
          }
        }
    }
    const Timing t = TimeGpu(ctx, ctx.Warmup(), ctx.Reps() + 5, [&] { Launch(best, x, ctx.stream); });
    Metric m;
    m.id = info.id;
    m.name = info.name;
    m.unit = "B/s";
    m.catalog_field = "memory_bandwidth";
    m.bytes_per_rep = info.bytes_factor * static_cast<double>(bytes);
    m.method = std::string(info.what) + "; arrays of " + Mib(bytes) + " each (" +
               std::to_string(static_cast<int>(static_cast<double>(bytes) / l2)) + "x L2); " +
               (best.one_pass ? std::string("one-pass kernel (a block per contiguous tile, streaming stores), ")
                              : "grid-stride kernel, " + std::to_string(best.grid) + " blocks of " +
                                    std::to_string(kBlock) + " threads (full occupancy on " + std::to_string(sms) +
                                    " SMs), ") +
               std::to_string(best.unroll) + " independent " + (info.pattern == Pattern::kCopyScalar ? "4" : "16") +
               "-byte accesses per thread" +
               (ctx.options.quick ? "" : " (fastest of unroll 1/2/4/8 × grid-stride/one-pass in a short sweep)") +
               "; CUDA events around each repetition, median";
    SetRate(m, t, m.bytes_per_rep);
    m.numbers.emplace_back("array_bytes", static_cast<double>(bytes));
    m.numbers.emplace_back("unroll", best.unroll);
    m.numbers.emplace_back("one_pass", best.one_pass ? 1 : 0);
    ctx.Add(m);
  }

  ctx.Announce("cudaMemcpy device to device");
  const Timing t = TimeGpu(ctx, ctx.Warmup(), ctx.Reps() + 5, [&] {
    PROBE_CUDA(cudaMemcpyAsync(x.a, x.b, bytes, cudaMemcpyDeviceToDevice, ctx.stream));
  });
  Metric m;
  m.id = "memcpy_d2d";
  m.name = N_("cudaMemcpy device to device");
  m.unit = "B/s";
  m.catalog_field = "memory_bandwidth";
  m.bytes_per_rep = 2.0 * static_cast<double>(bytes);
  m.method = "cudaMemcpyAsync device-to-device of " + Mib(bytes) +
             ", counting read + write bytes (2x the size, as for the copy kernel and PyTorch's copy_ reference); "
             "CUDA events around each repetition, median";
  SetRate(m, t, m.bytes_per_rep);
  m.numbers.emplace_back("array_bytes", static_cast<double>(bytes));
  ctx.Add(m);
}

// [SECTION] L2 ------------------------------------------------------------------------------------

void ProbeL2(Context& ctx) {
  const size_t l2 = static_cast<size_t>(std::max(0, ctx.prop.l2CacheSize));
  if (l2 < kMiB) {
    ctx.Skipped("l2_read", "the device reports no L2 size");
    return;
  }
  ctx.Announce("L2 read");
  // Half of L2: fits with room to spare (H100/H200 split L2 in two partitions; data may live in
  // the far one, which this measurement includes).
  size_t bytes = l2 / 2;
  bytes -= bytes % 512;
  const size_t n4 = bytes / sizeof(float4);
  const double target_bytes = ctx.options.quick ? 0.5e9 : 4e9;  // per repetition (full: ~0.5 ms at 8 TB/s)
  const int passes = std::max(1, static_cast<int>(target_bytes / static_cast<double>(bytes)));
  DeviceBuffer a(bytes), sink(sizeof(float));
  FillUnitKernel<<<ctx.prop.multiProcessorCount * 8, kBlock, 0, ctx.stream>>>(a.as<float>(), bytes / sizeof(float), 4);
  PROBE_CUDA(cudaGetLastError());
  const int grid = FullGrid(L2ReadKernel, ctx.prop.multiProcessorCount);
  const Timing t = TimeGpu(ctx, ctx.Warmup() + 1, ctx.Reps() + 5, [&] {
    L2ReadKernel<<<grid, kBlock, 0, ctx.stream>>>(a.as<float4>(), n4, passes, sink.as<float>());
  });
  Metric m;
  m.id = "l2_read";
  m.name = N_("L2 read");
  m.unit = "B/s";
  m.bytes_per_rep = static_cast<double>(bytes) * passes;
  m.method = "repeated reads (" + std::to_string(passes) + " passes per repetition) of a " + Mib(bytes) +
             " working set (half of the " + Mib(l2) + " L2) with ld.global.cg (L2, not L1), 16-byte loads, " +
             std::to_string(grid) + " blocks of " + std::to_string(kBlock) +
             "; warm-up loads the set into L2; CUDA events, median";
  SetRate(m, t, m.bytes_per_rep);
  m.numbers.emplace_back("working_set_bytes", static_cast<double>(bytes));
  m.numbers.emplace_back("passes", passes);
  ctx.Add(m);
}

// [SECTION] Host <-> device ---------------------------------------------------------------------

void ProbeHostTransfers(Context& ctx) {
  const size_t bytes = std::min(ctx.options.quick ? 32 * kMiB : 256 * kMiB, ctx.free_bytes / 4);
  DeviceBuffer device(bytes);
  std::unique_ptr<unsigned char[]> pageable(new unsigned char[bytes]);
  std::memset(pageable.get(), 1, bytes);  // touch every page before timing
  PinnedBuffer pinned(bytes);
  std::memset(pinned.get(), 1, bytes);
  PROBE_CUDA(cudaMemset(device.get(), 0, bytes));

  struct Case {
    const char* id;
    const char* name;
    bool to_device;
    bool is_pinned;
  };
  const Case cases[] = {
      {"h2d_pageable", N_("Host to device, pageable"), true, false},
      {"d2h_pageable", N_("Device to host, pageable"), false, false},
      {"h2d_pinned", N_("Host to device, pinned"), true, true},
      {"d2h_pinned", N_("Device to host, pinned"), false, true},
  };
  const int reps = ctx.options.quick ? 3 : 10;
  const int warmup = ctx.options.quick ? 1 : 2;
  for (const Case& c : cases) {
    ctx.Announce(c.name);
    void* host = c.is_pinned ? pinned.get() : static_cast<void*>(pageable.get());
    const Timing t = TimeGpu(ctx, warmup, reps, [&] {
      if (c.to_device) {
        PROBE_CUDA(cudaMemcpyAsync(device.get(), host, bytes, cudaMemcpyHostToDevice, ctx.stream));
      } else {
        PROBE_CUDA(cudaMemcpyAsync(host, device.get(), bytes, cudaMemcpyDeviceToHost, ctx.stream));
      }
    });
    Metric m;
    m.id = c.id;
    m.name = c.name;
    m.unit = "B/s";
    m.bytes_per_rep = static_cast<double>(bytes);
    m.method = std::string("cudaMemcpyAsync of ") + Mib(bytes) + (c.to_device ? " host to device" : " device to host") +
               (c.is_pinned ? " from/to page-locked memory (cudaMallocHost)"
                            : " from/to pageable memory (new[], pages touched first; the driver stages it)") +
               ", one direction at a time; the host buffer's NUMA node is not controlled; CUDA events, median";
    SetRate(m, t, m.bytes_per_rep);
    ctx.Add(m);
  }
}

// [SECTION] Peer to peer ----------------------------------------------------------------------------

namespace {
// Restores the current device when a scope ends.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    cudaGetDevice(&saved_);
    PROBE_CUDA(cudaSetDevice(device));
  }
  ~DeviceGuard() { cudaSetDevice(saved_); }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int saved_ = 0;
};
}  // namespace

void ProbePeer(Context& ctx) {
  if (ctx.device_count < 2) {
    ctx.Skipped("p2p", "one GPU");
    return;
  }
  const size_t bytes = std::min(ctx.options.quick ? 32 * kMiB : 256 * kMiB, ctx.free_bytes / 4);
  DeviceBuffer src(bytes);
  PROBE_CUDA(cudaMemset(src.get(), 1, bytes));
  for (int other = 0; other < ctx.device_count; ++other) {
    if (other == ctx.device) continue;
    const std::string id = "p2p_" + std::to_string(ctx.device) + "_to_" + std::to_string(other);
    const std::string name = "Peer copy GPU " + std::to_string(ctx.device) + " -> GPU " + std::to_string(other);
    ctx.Announce(name);
    int can_access = 0;
    PROBE_CUDA(cudaDeviceCanAccessPeer(&can_access, ctx.device, other));
    if (can_access) {
      const cudaError_t err = cudaDeviceEnablePeerAccess(other, 0);
      if (err == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();  // clear the non-sticky error
      } else {
        PROBE_CUDA(err);
      }
    }
    std::unique_ptr<DeviceBuffer> dst;
    {
      DeviceGuard guard(other);
      dst = std::make_unique<DeviceBuffer>(bytes);
    }
    const Timing t = TimeGpu(ctx, ctx.Warmup(), ctx.Reps(), [&] {
      PROBE_CUDA(cudaMemcpyPeerAsync(dst->get(), other, src.get(), ctx.device, bytes, ctx.stream));
    });
    Metric m;
    m.id = id;
    m.name = name;
    m.unit = "B/s";
    m.bytes_per_rep = static_cast<double>(bytes);
    m.method = "cudaMemcpyPeerAsync of " + Mib(bytes) + ", one direction, bytes counted once; " +
               (can_access ? "peer access enabled (NVLink or PCIe P2P)"
                           : "no peer access between these GPUs: the driver stages the copy through the host") +
               "; CUDA events, median";
    SetRate(m, t, m.bytes_per_rep);
    m.strings.emplace_back("peer_access", can_access ? "yes" : "no");
    ctx.Add(m);
  }
}

}  // namespace gpuplan::probe
