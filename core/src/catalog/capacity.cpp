#include "gpuplan/capacity.h"
#include "gpuplan/i18n.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "gpuplan/units.h"

namespace gpuplan {

double Gpu::QuotedBinaryBytes() const {
  const std::string& u = memory_quoted_unit;
  const double per = u == "GB" || u == "GiB" ? kGiB : u == "MB" || u == "MiB" ? kMiB : u == "TB" ? kTiB : 0;
  return memory_quoted_value * per;
}

double Gpu::TotalBytes() const {
  if (memory_reported) return memory_reported->bytes;
  if (memory_derived) return memory_derived->bytes;
  // A user file with neither (the loader warns): DRAM is binary, so "24 GB" is read as 24 GiB.
  const double binary = QuotedBinaryBytes();
  return binary > 0 ? binary : memory_quoted_bytes;
}

namespace {


struct Rule {
  const char* name;
  const char* words;
};
constexpr Rule kRules[] = {
    {"apple-metal", N_("Metal's recommendedMaxWorkingSetSize: 2/3 of RAM up to 32 GiB, 3/4 above")},
    {"amd-gtt", N_("Linux amdgpu GTT default: the larger of 3 GiB and half of RAM")},
    {"cuda-unified", N_("CUDA sees the OS's whole memory; the OS, the page cache and other programs share it")},
    {"fraction", N_("a fixed share of RAM, as the catalog's source states")},
};

// The share of a unified machine's RAM the GPU may allocate by default.
//  - apple-metal: Metal's MTLDevice.recommendedMaxWorkingSetSize, which llama.cpp, MLX and
//    Ollama treat as the GPU's memory. llama.cpp start-up logs (macOS 13-15) show 2/3 of RAM up
//    to 32 GB (8 GB: 5,461.34 MiB, chatglm.cpp#76; 16 GB: 10,922.67 MiB, llama-cpp-python#687;
//    32 GB: 21,845.34 MiB, llama.cpp#2011) and 3/4 from 36 GB (64 GB: 49,152 MiB, llama.cpp#1870;
//    96 GB: 73,728 MiB, llama.cpp#3213; 128 GB M4 Max: 96 GiB). Readings from macOS 26 are higher
//    (0.74-0.91 of RAM: 107.52 GiB of 128 on an M5 Max, antirez/ds4#893), so the older rule is the
//    conservative default; `sysctl iogpu.wired_limit_mb` raises it (gpu-mem-gib here).
//  - amd-gtt: the amdgpu driver's default GTT size, max(3 GiB, RAM / 2) (kernel commit "drm/amdgpu:
//    Adjust logic around GTT size (v3)", 2022; dmesg "63968M of GTT memory ready" on a 128 GB
//    Ryzen AI Max+ 395, antirez/ds4#475). HIP reports the larger of the BIOS carve-out and GTT
//    (ROCm/rocm-systems#1967); a 96 GB carve-out or ttm.pages_limit raises it.
//  - cuda-unified: DGX Spark (GB10) and Jetson report the OS's MemTotal as CUDA's total (121.69 GiB
//    of 128 on a DGX Spark); what the OS itself holds is in that reading already.
//  - fraction: a documented cap, e.g. MI300A's HIP device allocations, 96 of 128 GiB (ROCm docs).
double UnifiedShare(const UnifiedMemory& u, double ram_bytes) {
  if (u.rule == "apple-metal") return ram_bytes <= 32 * kGiB ? ram_bytes * 2 / 3 : ram_bytes * 3 / 4;
  if (u.rule == "amd-gtt") return std::max(3 * kGiB, ram_bytes / 2);
  if (u.rule == "fraction") return ram_bytes * u.gpu_fraction;
  return ram_bytes;  // cuda-unified
}

// What the NVIDIA driver keeps back: CUDA's total (cudaMemGetInfo, PyTorch's "total capacity")
// is nvidia-smi's total less memory the driver and firmware reserve ("Reserved" in nvidia-smi -q;
// DCGM: usable = Total - Reserved). Where the catalog has no runtime reading, a line through 17
// published pairs of the two totals (assets/catalog, memory_runtime_mib; helpers' notes): P100 102,
// V100 32 GB 266-276, A100 40 GB 512, A100 80 GB 666-768, H100 469-550, H100 NVL 598, H200 615-616,
// B200 729, B300 936, RTX 3060 379, 3090 328, 4090 316-387, 5080 482, A30 481, A40 572, A10G 193
// MiB: 300 MiB + 0.24% of the total, within ±250 MiB of every pair.
double NvidiaReserveRule(double total) { return 300 * kMiB + 0.0024 * total; }

}  // namespace

std::vector<CapacityRow> CapacityRows(const DeviceMemory& d) {
  std::vector<CapacityRow> rows = {{Tr("Device total"), d.total_bytes, d.total_basis}};
  for (const CapacityStep& s : d.steps) rows.push_back({(s.bytes >= 0 ? "- " : "+ ") + s.name, std::abs(s.bytes), s.formula});
  rows.push_back(
      {Tr("Available"), d.free_bytes, Tr("what this workload can allocate: the total less the steps above")});
  return rows;
}

bool IsUnifiedMemoryRule(std::string_view rule) {
  return std::any_of(std::begin(kRules), std::end(kRules), [&](const Rule& r) { return rule == r.name; });
}

std::string UnifiedMemoryRuleNames() {
  std::string out;
  for (const Rule& r : kRules) out += (out.empty() ? "" : ", ") + std::string(r.name);
  return out;
}

Result<DeviceMemory> EstimateDeviceMemory(const Gpu& gpu, const Scenario& s, Detail detail) {
  const bool say = detail == Detail::kExplained;  // the words, besides the numbers
  DeviceMemory d;
  // --- The device total, as the driver reports it (or derived from the chips).
  const MemoryFigure* figure = gpu.memory_reported  ? &*gpu.memory_reported
                               : gpu.memory_derived ? &*gpu.memory_derived
                                                    : nullptr;
  d.total_bytes = gpu.TotalBytes();
  if (say) {
    if (gpu.memory_reported)
      d.total_basis = TrF("driver-reported total: {0} {1}", {figure->how, FormatMiB(figure->bytes)});
    else if (gpu.memory_derived)
      d.total_basis = TrF("derived from the memory configuration: {0}", {figure->how});
    else
      d.total_basis = TrF("the quoted {0} {1} read as binary (no driver reading in the catalog)",
                          {FormatShort(gpu.memory_quoted_value), gpu.memory_quoted_unit});
    d.total_basis += TrF("; vendor quotes {0} {1}", {FormatShort(gpu.memory_quoted_value), gpu.memory_quoted_unit});
  }

  const bool ecc_matters = gpu.ecc.value_or(false) && gpu.ecc_reserved_fraction > 0 && !gpu.unified;
  // --- ECC. GDDR cards give up 1/16 of their memory to it when it is on ("On GPUs with GDDR memory
  //     with ECC enabled the available DRAM is reduced by 6.25%", CUDA C++ Best Practices Guide,
  //     "ECC"); HBM carries ECC beside the data at no cost in capacity. A reading taken in the other
  //     state is converted: A40 49,140 MiB off, 46,068 on = 49,140 × 15/16.
  if (say && s.ecc != "default" && !ecc_matters) {
    if (gpu.memory_type.rfind("HBM", 0) == 0)
      d.assumptions.push_back(
          TrF("ECC on HBM is carried beside the data: ecc={0} does not change the capacity", {s.ecc}));
    else if (!gpu.ecc.value_or(false))
      d.warnings.push_back(TrF("ecc: {0} has no ECC to switch; ecc={1} has no effect", {gpu.name, s.ecc}));
    else
      d.warnings.push_back(TrF("ecc: no ECC reservation in the catalog for {0} ({1}); ecc={2} changes nothing",
                               {gpu.name, gpu.ecc_note.empty() ? gpu.memory_type : gpu.ecc_note, s.ecc}));
  }
  if (ecc_matters) {
    const double f = gpu.ecc_reserved_fraction;
    const bool want_on = s.ecc == "default" ? gpu.ecc_default_on : s.ecc == "on";
    const bool read_on = figure && figure->ecc.value_or(false);
    const std::string state = want_on ? "on" : "off";
    if (read_on && !want_on) {
      d.total_bytes /= 1 - f;
      if (say) d.total_basis += TrF("; ECC off: the reading (ECC on) / (1 - {0}%)", {FormatShort(f * 100)});
    } else if (!read_on && want_on) {
      const double ecc = d.total_bytes * f;
      d.steps.push_back({"ecc", Tr("ECC reservation"),
                         !say ? std::string()
                              : TrF("{0}% of {1} while ECC is on ({2})",
                                    {FormatShort(f * 100), FormatMiB(d.total_bytes),
                                     s.ecc == "default" ? Tr("the card's factory setting") : "ecc=on"}),
                         ecc});
    } else if (want_on && say) {
      d.total_basis += Tr("; read with ECC on, as set");
    }
    if (say)
      d.assumptions.push_back(s.ecc == "default"
                                  ? TrF("ECC {0} (the card's factory setting; ecc=on|off changes it)", {state})
                                  : TrF("ECC {0}", {state}));
  }
  double left = d.total_bytes;
  for (const CapacityStep& step : d.steps) left -= step.bytes;

  // --- A MIG slice: the driver gives each GPU instance a fixed share of the memory slices.
  const bool mig = s.mig != "none" && !s.mig.empty();
  if (mig) {
    const MigProfile* p = nullptr;
    for (const MigProfile& m : gpu.mig_profiles)
      if (m.name == s.mig) p = &m;
    if (!p) {
      std::string known;
      for (const MigProfile& m : gpu.mig_profiles) known += (known.empty() ? "" : ", ") + m.name;
      return Error{known.empty() ? TrF("mig: {0} has no MIG profiles in the catalog", {gpu.name})
                                 : TrF("mig: {0} has no MIG profile '{1}' (known: {2})", {gpu.name, s.mig, known})};
    }
    d.steps.push_back(
        {"mig", Tr("MIG slice"),
         !say ? std::string()
              : TrF("GPU instance {0} gets {1} (nvidia-smi mig -lgip)", {p->name, FormatMiB(p->bytes)}) +
                    (p->max_instances > 0 ? TrF(", up to {0} per GPU", {std::to_string(p->max_instances)}) : ""),
         std::max(0.0, left - p->bytes)});
    // Its compute: Ng of the largest profile's slices (7 on A100/H100/H200/B200, 4 on A30 and the
    // RTX PRO 6000); its bandwidth: the share of the memory it holds (its memory slices).
    auto slices = [](const std::string& name) {
      const size_t g = name.find('g');
      return g == std::string::npos ? 0.0 : std::atof(name.substr(0, g).c_str());
    };
    double most = 0;
    for (const MigProfile& m : gpu.mig_profiles) most = std::max(most, slices(m.name));
    if (most > 0 && slices(p->name) > 0) d.compute_share = slices(p->name) / most;
    d.bandwidth_share = std::min(1.0, p->bytes / std::max(1.0, left));
    if (say)
      d.assumptions.push_back(
          TrF("MIG {0}: {1}% of the SMs and {2}% of the memory bandwidth (its memory slices); "
              "cost counts the whole GPU's price",
              {p->name, FormatFixed(d.compute_share * 100, 0), FormatFixed(d.bandwidth_share * 100, 0)}));
    if (say && (s.tp > 1 || s.pp > 1))
      d.warnings.push_back(
          Tr("mig: MIG instances have no NVLink or peer-to-peer path between them; tensor or "
             "pipeline parallelism over slices runs through host memory, if an engine allows it at all"));
    left = std::min(left, p->bytes);
  }

  // --- What the driver keeps for itself (discrete NVIDIA GPUs; ROCm's and hl-smi's totals are
  //     what the runtime sees already).
  if (say && gpu.runtime_devices > 1)
    d.warnings.push_back(
        TrF("{0} appears to the runtime as {1} devices of {2}: one board here is tensor parallelism "
            "over them",
            {gpu.name, std::to_string(gpu.runtime_devices), FormatBytes(d.total_bytes / gpu.runtime_devices)}));
  if (!mig && !gpu.unified) {
    if (gpu.memory_runtime && gpu.memory_reported) {
      const double reserve = std::max(0.0, gpu.memory_reported->bytes - gpu.memory_runtime->bytes);
      d.steps.push_back({"driver_reserve", Tr("Driver reserve"),
                         !say ? std::string()
                              : TrF("driver total {0} - runtime total {1} ({2})",
                                    {FormatMiB(gpu.memory_reported->bytes), FormatMiB(gpu.memory_runtime->bytes),
                                     gpu.memory_runtime->how}),
                         reserve});
      left -= reserve;
    } else if (gpu.vendor == "NVIDIA") {
      const double reserve = NvidiaReserveRule(left);
      d.steps.push_back({"driver_reserve", Tr("Driver reserve"),
                         !say
                             ? std::string()
                             : Tr("300 MiB + 0.24% of the total: a line through 17 published pairs of nvidia-smi's and "
                                  "CUDA's totals (100-940 MiB reserved)"),
                         reserve});
      left -= reserve;
    }
  }

  // --- A unified-memory machine: the OS rule for the GPU's share of RAM.
  if (gpu.unified && !mig) {
    // What the OS shows as its memory (MemTotal) where a reading has it: CUDA's total on a DGX
    // Spark or a Jetson is that figure, the firmware and kernel carve-outs already gone.
    if (gpu.memory_runtime && gpu.memory_runtime->bytes < left) {
      d.steps.push_back({"os_reserved", Tr("Firmware and kernel"),
                         !say ? std::string()
                              : TrF("{0} of RAM - {1} the runtime sees ({2})",
                                    {FormatMiB(left), FormatMiB(gpu.memory_runtime->bytes), gpu.memory_runtime->how}),
                         left - gpu.memory_runtime->bytes});
      left = gpu.memory_runtime->bytes;
    }
    const double share = std::min(left, UnifiedShare(*gpu.unified, d.total_bytes));
    const std::string words = !say ? std::string() : [&] {
      for (const Rule& r : kRules)
        if (gpu.unified->rule == r.name) return std::string(Tr(r.words));
      return gpu.unified->rule;
    }();
    if (share < left) {
      d.steps.push_back(
          {"os_rule", Tr("OS limit for the GPU"),
           !say ? std::string()
                : words +
                      (gpu.unified->rule == "fraction" ? " (" + FormatShort(gpu.unified->gpu_fraction * 100) + "%)"
                                                       : "") +
                      TrF(": {0} of {1} may be GPU memory; gpu-mem-gib overrides it",
                          {FormatMiB(share), FormatMiB(d.total_bytes)}),
           left - share});
      left = share;
    }
    if (say)
      d.assumptions.push_back(TrF("unified memory: {0}", {words}) +
                              (gpu.unified->note.empty() ? "" : " (" + gpu.unified->note + ")"));
    if (say && gpu.unified->rule == "cuda-unified")
      d.warnings.push_back(
          TrF("{0} shares its memory with the OS, the page cache and every program: what is free "
              "is less than this (set used-gib; vLLM on a DGX Spark sees about 100 GiB free)",
              {gpu.name}));
  }

  // --- The user's own figure for the memory the GPU may use (a raised wired limit, a BIOS
  //     carve-out, another board variant): it replaces everything above.
  if (s.gpu_mem_gib > 0) {
    const double mine = s.gpu_mem_gib * kGiB;
    d.steps.push_back(
        {"user_limit", Tr("Set by gpu-mem-gib"),
         !say ? std::string() : TrF("{0} GiB instead of {1}", {FormatFixed(s.gpu_mem_gib, 2), FormatMiB(left)}),
         left - mine});
    left = mine;
  }
  d.runtime_bytes = std::max(0.0, left);

  // --- Memory other processes hold already (a desktop, a second model).
  if (s.used_gib > 0) {
    const double used = s.used_gib * kGiB;
    d.steps.push_back({"other_processes", Tr("Used by other processes"),
                       !say ? std::string()
                            : TrF("{0} GiB per GPU (used-gib: a desktop, another model)", {FormatFixed(s.used_gib, 2)}),
                       used});
    if (say && used >= d.runtime_bytes)
      d.warnings.push_back(TrF("used-gib: other processes hold {0} GiB, all of the {1} the runtime has",
                               {FormatFixed(s.used_gib, 2), FormatBytes(d.runtime_bytes)}));
  }
  d.free_bytes = std::max(0.0, d.runtime_bytes - std::max(0.0, s.used_gib) * kGiB);
  if (!say) return d;
  d.basis = d.total_basis;
  for (const CapacityStep& step : d.steps)
    d.basis += (step.bytes >= 0 ? " - " : " + ") + step.name + " " + FormatMiB(std::abs(step.bytes));
  d.basis += " = " + FormatMiB(d.free_bytes);
  return d;
}

}  // namespace gpuplan
