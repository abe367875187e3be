// core/src/cpu_platform.h — the CPU platform layer shared by the reference GEMM (gemm.cpp) and
// the CPU probe (cpu_probe.cpp): which wide units this CPU has, how many threads a run may
// start, aligned buffers, and a team of threads. Private to the core (and the page's probe
// modules, which compile those two files).
//
// Index:
//   [SECTION] Target: x86 dispatch or not
//   [SECTION] CPU features
//   [SECTION] Threads
//   [SECTION] Aligned buffers
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

// [SECTION] Target -----------------------------------------------------------------------
// GPUPLAN_CPU_X86: an x86 build by GCC or clang, where code for wider units than the
// baseline is compiled into functions with a target attribute and chosen at run time with
// __builtin_cpu_supports (so one binary runs on every x86-64). Never in Emscripten.
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && !defined(__EMSCRIPTEN__)
#define GPUPLAN_CPU_X86 1
#else
#define GPUPLAN_CPU_X86 0
#endif

// The features a target attribute may assume once the matching Has...() below said yes:
// __attribute__((target(GPUPLAN_CPU_AVX512_FEATURES))). The test and the attribute name the
// same set, so the compiler never emits an instruction the test did not check.
#define GPUPLAN_CPU_AVX2_FEATURES "avx2,fma"
#define GPUPLAN_CPU_AVX512_FEATURES "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma"

namespace gpuplan::platform {

// [SECTION] CPU features -----------------------------------------------------------------
// libgcc / compiler-rt also check (XGETBV) that the OS saves the wide registers, so a yes
// here means the code runs, not only that the CPU has the unit.

// AVX2 and FMA3 (Haswell, Zen 1 and later).
inline bool HasAvx2Fma() {
#if GPUPLAN_CPU_X86
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

// What the project counts as AVX-512: F + VL + BW + DQ (with AVX2 and FMA). That is the set
// the GEMM's AVX-512 kernels are compiled for (VL lets the compiler use EVEX forms on 128- and
// 256-bit vectors, BW and DQ the byte/word and dword/qword forms), so the test must cover all
// of it, and the probe uses the same test so both report the same machine. Every AVX-512 core
// but Xeon Phi's has the set (Skylake-SP/X from 2017, Ice Lake, Sapphire Rapids, Zen 4, Zen 5);
// Knights Landing/Mill have F without VL/BW/DQ and run the AVX2 code.
inline bool HasAvx512() {
#if GPUPLAN_CPU_X86
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx2") &&
         __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

// [SECTION] Threads ----------------------------------------------------------------------
// A wasm build without pthreads has std::thread in its headers but cannot start one.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
inline constexpr bool kThreadsAvailable = false;
#else
inline constexpr bool kThreadsAvailable = true;
#endif

// How many CPUs this process may run on: 1 where no thread can be started.
inline int AvailableCpus() {
  if (!kThreadsAvailable) return 1;
#if defined(__linux__)
  // The affinity mask, not the machine: a container or taskset may allow fewer.
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? static_cast<int>(n) : 1;
}

// What a team's shares ask of one another, which decides what happens when a thread cannot
// be started (std::system_error, or no memory for its handle). Without exceptions that aborts
// the program either way.
enum class Shares {
  kIndependent,  // any order will do: the share runs on the calling thread instead
  kLockstep,     // they wait on one another (a barrier), so no share can wait its turn: the
                 // error is not caught (and ends the program once any of the team runs)
};

// Threads started once and kept for every later team (the GEMM's and the probe's): starting a
// thread costs 31-80 us here, and one that starts late leaves its share to the end of the call
// (the median two-thread SGEMM at N = 512 was half its best). Idle threads sleep on a condition
// variable, so they cost nothing between calls and never spin against the threads that work,
// however many there are per core. One caller at a time: a second (another thread, or a team's
// share that starts a team of its own) gets `false` and starts threads of its own instead.
class PersistentTeam {
 public:
  static PersistentTeam& Get() {
    static PersistentTeam* team = new PersistentTeam;  // never destroyed: sleeping threads may outlive main
    return *team;
  }

  // body(t) for t in [1, shares) on the team's threads and body(0) here, back when all are
  // done. False, having run nothing, when the team is in use or cannot grow to `shares`.
  template <typename Body>
  bool Run(int shares, const Body& body) {
    std::unique_lock<std::mutex> use(use_, std::try_to_lock);
    if (!use.owns_lock() || !Grow(shares - 1)) return false;
    {
      std::lock_guard<std::mutex> lock(m_);
      job_ = [](const void* b, int t) { (*static_cast<const Body*>(b))(t); };
      body_ = &body;
      shares_ = shares;
      pending_ = shares - 1;
      ++generation_;
    }
    wake_.notify_all();
    body(0);
    std::unique_lock<std::mutex> lock(m_);
    done_.wait(lock, [&] { return pending_ == 0; });
    return true;
  }

 private:
  bool Grow(int workers) {
    while (static_cast<int>(workers_.size()) < workers) {
      const int share = static_cast<int>(workers_.size()) + 1;
#if defined(__cpp_exceptions)
      try {
        workers_.emplace_back([this, share] { Work(share); });
      } catch (...) {
        return false;
      }
#else
      workers_.emplace_back([this, share] { Work(share); });
#endif
    }
    return true;
  }

  void Work(int share) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      wake_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (share >= shares_) continue;  // a smaller team this time
      void (*job)(const void*, int) = job_;
      const void* body = body_;
      lock.unlock();
      job(body, share);
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::mutex use_;  // held by the one caller whose team is running
  std::mutex m_;    // guards what follows
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;  // worker i runs share i + 1
  void (*job_)(const void*, int) = nullptr;
  const void* body_ = nullptr;
  int shares_ = 0;
  int pending_ = 0;
  uint64_t generation_ = 0;
};

// Runs body(t) for t in [0, threads): t = 0 on the calling thread, the rest on the persistent
// team's threads (or, when that is busy, on new threads joined at the end). Without threads
// (kThreadsAvailable false) every share runs in turn on the calling thread, so a lockstep team
// there must be of one.
template <typename Body>
void RunTeam(int threads, Shares shares, const Body& body) {
  if constexpr (kThreadsAvailable) {
    if (threads > 1 && PersistentTeam::Get().Run(threads, body)) return;
    std::vector<std::thread> team;
    for (int t = 1; t < threads; ++t) {
#if defined(__cpp_exceptions)
      if (shares == Shares::kIndependent) {
        try {
          team.emplace_back([&body, t] { body(t); });
        } catch (...) {
          body(t);
        }
        continue;
      }
#endif
      team.emplace_back([&body, t] { body(t); });
    }
    body(0);
    for (std::thread& th : team) th.join();
  } else {
    (void)shares;
    for (int t = 0; t < threads; ++t) body(t);
  }
}

// A sense-free generation barrier for a team's shares (the GEMM between packing B and using
// it, the probe's timed rounds). Waiters spin (a pause per check: no scheduler wake-up between
// the last arrival and the others' next step, so the probe's timer reads the work), but a team
// with more threads than CPUs it may use yields instead (a spinning waiter would hold the CPU
// the thread it waits for needs), as does any waiter once it has spun ~100 us.
class Barrier {
 public:
  explicit Barrier(int threads) : threads_(threads), yield_(threads > AvailableCpus()) {}
  void Wait() {
    const unsigned gen = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
      return;
    }
    for (int spins = 0; generation_.load(std::memory_order_acquire) == gen; ++spins) {
      if (yield_ || spins > kSpinsBeforeYield)
        std::this_thread::yield();
      else
        Pause();
    }
  }

 private:
  static constexpr int kSpinsBeforeYield = 1 << 14;  // ~100 us of pauses on current x86 cores
  static void Pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }
  const int threads_;
  const bool yield_;
  std::atomic<int> arrived_{0};
  std::atomic<unsigned> generation_{0};
};

// [SECTION] Aligned buffers --------------------------------------------------------------
inline constexpr std::size_t kCacheLineBytes = 64;  // x86 and most Arm cores; one zmm

// Owns one block aligned to a cache line (and a zmm), empty when allocation failed. The
// memory is left untouched, so the first write decides where each page lives (first touch).
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(std::size_t bytes) { Allocate(bytes); }
  ~AlignedBuffer() { std::free(data_); }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  AlignedBuffer(AlignedBuffer&& other) noexcept : data_(std::exchange(other.data_, nullptr)) {}
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept {
    if (this != &other) {
      std::free(data_);
      data_ = std::exchange(other.data_, nullptr);
    }
    return *this;
  }

  // Frees what it held and allocates `bytes` (rounded up to whole lines, as aligned_alloc
  // requires; one line for 0). False when out of memory.
  bool Allocate(std::size_t bytes) {
    std::free(data_);
    data_ = nullptr;
    if (bytes > SIZE_MAX - kCacheLineBytes) return false;  // the rounding would wrap
    const std::size_t rounded = (bytes + kCacheLineBytes - 1) / kCacheLineBytes * kCacheLineBytes;
    data_ = std::aligned_alloc(kCacheLineBytes, rounded == 0 ? kCacheLineBytes : rounded);
    return data_ != nullptr;
  }

  template <typename T>
  T* As() const {
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
};

}  // namespace gpuplan::platform
