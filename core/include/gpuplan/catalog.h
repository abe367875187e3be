// gpuplan/catalog.h — accelerators, model architectures and number formats, every figure
// with its source. The catalog is JSON (assets/catalog/*.json) embedded at build time;
// user files can add entries or override them by id.
//
// Index:
//   [SECTION] Sources
//   [SECTION] Entries: Gpu, Model, WeightFormat, KvFormat
//   [SECTION] Catalog and loading
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/expected.h"

namespace gpuplan {

// [SECTION] Sources --------------------------------------------------------------------
struct Source {
  std::vector<std::string> fields;  // which fields of the entry this source backs
  std::string title;
  std::string url;
  std::string read;                 // date the source was read, YYYY-MM-DD
  std::string note;
};

// [SECTION] Entries ----------------------------------------------------------------------
struct Interconnect {
  std::string kind;          // "NVLink", "Infinity Fabric", "ICI", "NeuronLink", "RoCE", ...
  int generation = 0;        // 0: not stated
  double bytes_per_s = 0;    // per GPU, total bidirectional, as vendors quote it
  std::string note;
};

struct Price {
  double usd = 0;
  std::string kind;          // "launch" (MSRP / list) or "street"
  std::string date;          // YYYY-MM or YYYY-MM-DD
  Source source;
};

struct Gpu {
  std::string id, name, vendor, architecture;
  int year = 0;
  std::string form_factor;   // "SXM5", "PCIe dual-slot", "OAM", "SoC (unified memory)", ...
  // Capacity as the vendor quotes it ("80 GB"): the unit is kept, never reinterpreted.
  double memory_quoted_value = 0;
  std::string memory_quoted_unit;   // "GB" or "GiB"
  std::string memory_type;          // "HBM3", "GDDR6X", ...
  double memory_quoted_bytes = 0;   // value × unit (GB = 1e9, GiB = 2^30)
  // Total memory the driver reports (nvidia-smi "MiB"), when a source shows it. Vendors' "GB"
  // for DRAM capacity is usually closer to GiB, so this is the better capacity when known.
  std::optional<double> memory_reported_bytes;
  std::string memory_reported_how;
  double bandwidth_bytes_per_s = 0;           // 0: unknown (no source found yet)
  std::map<std::string, double> dense_flops;  // precision -> FLOP/s (dense, never 2:4 sparse)
  double sparsity_factor = 0;               // 2:4 structured sparsity on tensor rates; 0: none stated
  double tdp_w = 0;
  double l2_cache_bytes = 0;                 // 0: unknown
  int compute_units = 0;                     // 0: unknown
  std::string compute_unit_kind;             // "SM", "CU", "TensorCore", "NeuronCore", "GPU core", ...
  double boost_clock_hz = 0;                 // 0: unknown
  std::optional<Interconnect> interconnect;  // scale-up link
  int pcie_gen = 0, pcie_lanes = 0;          // 0: unknown / none
  std::optional<bool> ecc;
  double ecc_reserved_fraction = 0;          // share of capacity ECC takes where it does (GDDR)
  std::string ecc_note;
  std::string mig;                           // MIG profiles in words
  std::vector<Price> prices;
  std::vector<Source> sources;

  // Capacity the estimators plan against: the driver-reported total when known, else as quoted.
  double CapacityBytes() const { return memory_reported_bytes.value_or(memory_quoted_bytes); }
};

struct Model {
  std::string id, name, hf_repo;
  double params = 0;                // total parameter count
  int layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0;
  int intermediate = 0, vocab = 0;
  long long max_context = 0;
  bool tie_embeddings = false;
  std::string notes;
  std::vector<Source> sources;
};

struct WeightFormat {
  std::string id, name;
  double bits_per_weight = 0;       // effective, including scales and zero points
  std::string derivation;
  Source source;
};

struct KvFormat {
  std::string id, name;
  double bytes_per_element = 0;
  std::string derivation;
  Source source;
};

// [SECTION] Catalog and loading ----------------------------------------------------------
struct CatalogFile {
  std::string name;   // shown in error messages ("gpus.json", a user's path)
  std::string text;
};

struct Catalog {
  std::vector<Gpu> gpus;
  std::vector<Model> models;
  std::vector<WeightFormat> weight_formats;
  std::vector<KvFormat> kv_formats;

  const Gpu* FindGpu(std::string_view id) const;
  const Model* FindModel(std::string_view id) const;
  const WeightFormat* FindWeightFormat(std::string_view id) const;
  const KvFormat* FindKvFormat(std::string_view id) const;
};

// Parses catalog files into `base`: entries with a new id are added, an existing id is
// replaced. Any error (malformed JSON, missing or wrong-typed field, non-positive number,
// a number without a source) rejects the whole file and names file, entry and field.
Result<Catalog> LoadCatalog(const std::vector<CatalogFile>& files, Catalog base = {});

// The catalog compiled into the program (assets/catalog/*.json). Loaded once.
const Result<Catalog>& EmbeddedCatalog();

// "unknown model 'x' (known: a, b, c)" — shared wording for CLI and page.
std::string UnknownIdMessage(std::string_view kind, std::string_view id,
                             const std::vector<std::string>& known);

}  // namespace gpuplan
