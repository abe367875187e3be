// gpuplan/limits.h — the largest value each kind of number may take when it comes from outside
// (a config.json, a catalog file, a probe file, a link, a flag). Checked where the number is
// read, before any cast to int or any loop over it, so no input can wrap an integer or make a
// computation run away; every reader names the file, entry, field, value and the limit.
//
// Each limit is a real-world maximum with room to grow (about 8x the largest published model
// or system of the day), so a future model loads and a typo or an attack does not.
#pragma once

#include <cstdint>
#include <string>

#include "gpuplan/i18n.h"

namespace gpuplan::limits {

struct Limit {
  const char* what;  // "number of layers": in "above 1,024, the largest number of layers gpuplan accepts"
  int64_t max;
  const char* basis;  // the largest published value it was set against
};

// Transformer layers: Llama 3.1 405B has 126, Megatron-LM's 1T GPT 128 (Narayanan et al. 2021,
// Table 1), PaLM 540B 118.
inline constexpr Limit kLayers{N_("number of layers"), 1024, N_("Llama 3.1 405B has 126, Megatron-LM's 1T GPT 128")};
// Hidden size: Megatron-LM's 1T GPT 25,600; PaLM 540B 18,432; Llama 3.1 405B 16,384.
inline constexpr Limit kHidden{N_("hidden size"), 131072, N_("Megatron-LM's 1T GPT has 25,600")};
// Attention heads (query or KV): Megatron-LM's 1T GPT 160; Llama 3.1 405B and DeepSeek-V3 128.
inline constexpr Limit kHeads{N_("number of attention heads"), 4096, N_("Megatron-LM's 1T GPT has 160")};
// Head dimension: 64-256 in practice (Gemma 2/3 256; DeepSeek's MLA 192 with RoPE).
inline constexpr Limit kHeadDim{N_("head dimension"), 8192, N_("Gemma 3 has 256")};
// MLP (or expert) width: Megatron-LM's 1T GPT 102,400; PaLM 540B 73,728.
inline constexpr Limit kIntermediate{N_("MLP width"), 1048576, N_("Megatron-LM's 1T GPT has 102,400")};
// Vocabulary: Gemma 3 262,144; most 32k-256k.
inline constexpr Limit kVocab{N_("vocabulary"), 4194304, N_("Gemma 3 has 262,144")};
// Context: Llama 4 Scout's 10,485,760 tokens.
inline constexpr Limit kContext{N_("context (tokens)"), 134217728, N_("Llama 4 Scout takes 10,485,760")};
// Routed experts: Kimi K2 384, DeepSeek-V3 256.
inline constexpr Limit kExperts{N_("number of experts"), 16384, N_("Kimi K2 has 384")};
// A small structural count (a conv kernel, heads of an indexer, a layer period, MTP layers).
inline constexpr Limit kSmallCount{N_("structural count"), 65536, N_("all published values are below 1,000")};
// GPUs in one job or system: the largest published clusters hold about 100,000-200,000.
inline constexpr Limit kGpus{N_("number of GPUs"), 1048576, N_("the largest published clusters hold about 200,000")};

// A measured rate or size in a probe file (B/s, FLOP/s, bytes, W): B200 does about 9 × 10^15
// dense FP4 FLOP/s, and HBM stacks hold about 10^11 bytes per GPU.
inline constexpr Limit kProbeValue{N_("measured value in a probe file"), 1000000000000000000,
                                   N_("B200 does about 9 × 10^15 FP4 FLOP/s")};
// A count in a probe file (threads, cores, SIMD bits, a GEMM size, repetitions).
inline constexpr Limit kProbeCount{N_("count in a probe file"), 1048576, N_("the largest CPUs run 1,024 threads")};

// Any quantity in a catalog file (a size, a rate, a price, a count), before it is scaled or
// multiplied: the largest in the built-in catalog is a parameter count, Kimi K2's 10^12.
inline constexpr Limit kCatalogQuantity{N_("quantity in a catalog file"), 1000000000000000,
                                        N_("the largest in the built-in catalog is Kimi K2's 10^12 parameters")};
// One device's figures in a catalog file, against the largest in the built-in catalog (2026-12):
// memory 512 GB (Mac Studio M3 Ultra), bandwidth 8,000 GB/s (MI355X), 15,000 dense TFLOPS (GB300,
// FP4), 1,400 W (MI355X), 2,900 MHz (Ryzen AI Max+ 395). Room is left for whole-wafer parts
// (Cerebras WSE-3: 44 GB of SRAM at 21 PB/s, 125,000 sparse FP16 TFLOPS, a 23 kW system).
inline constexpr Limit kDeviceMemoryGb{N_("memory of one device (GB)"), 100000,
                                       N_("a Mac Studio M3 Ultra has 512 GB, a B300 288 GB")};
inline constexpr Limit kDeviceBandwidthGbs{N_("memory bandwidth of one device (GB/s)"), 100000000,
                                           N_("an MI355X has 8,000 GB/s, a Cerebras WSE-3's SRAM 21,000,000")};
inline constexpr Limit kDeviceTflops{N_("TFLOPS of one device"), 1000000,
                                     N_("a GB300 does 15,000 dense FP4 TFLOPS, a Cerebras WSE-3 125,000")};
inline constexpr Limit kDeviceWatts{N_("power of one device (W)"), 100000,
                                    N_("an MI355X draws 1,400 W, a Cerebras CS-3 system 23,000 W")};
inline constexpr Limit kClockMhz{N_("clock (MHz)"), 10000, N_("GPUs boost to about 3,000 MHz")};
// Catalog files loaded together (--catalog repeated, or the files imported in one page session):
// the built-in catalog is 16 files of 0.9 MB in all, and one file may be 16 MiB
// (Session::kMaxImportBytes), so without a total a long command line could hold gigabytes.
inline constexpr Limit kCatalogFiles{N_("number of catalog files loaded together"), 256,
                                     N_("the built-in catalog is 16 files")};
inline constexpr Limit kCatalogBytes{N_("number of bytes of catalog files loaded together"), 64 << 20,
                                     N_("the built-in catalog is 0.9 MB")};

// "above 1,024, the largest number of layers gpuplan accepts (Llama 3.1 405B has 126, ...)"
std::string Above(const Limit& limit);

}  // namespace gpuplan::limits
