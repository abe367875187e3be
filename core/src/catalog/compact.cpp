// The built-in catalog in a compact binary form, made at build time (core/tools/
// compact_catalog.cpp) from the catalog the JSON loader has read and checked, and read back at
// start-up without parsing: every field of every entry as the loader left it, strings as
// length + bytes, numbers as their own bytes (little-endian: x86-64, ARM64 and wasm alike).
//
// Each struct lists its fields once (Fields below); one list serves the writer and the reader.
// A field added to a catalog struct and not to its list stops the build: the list's length is
// checked against the struct's own count of fields (FieldCount, aggregate initialisation).
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuplan/catalog.h"

namespace gpuplan {

namespace {

// --- How many fields an aggregate has: the most initialisers T{...} accepts.
struct AnyField {
  template <class T>
  operator T() const {
    return T{};
  }
};
template <class T, class... A>
constexpr std::size_t FieldCount() {
  if constexpr (requires { T{A{}..., AnyField{}}; })
    return FieldCount<T, A..., AnyField>();
  else
    return sizeof...(A);
}

// --- Every catalog struct's fields, in declaration order (catalog.h).
template <class V>
void Fields(V& v, Source& x) {
  v.Struct(x, x.fields, x.title, x.url, x.read, x.note);
}
template <class V>
void Fields(V& v, Interconnect& x) {
  v.Struct(x, x.kind, x.generation, x.bytes_per_s, x.note, x.fabric);
}
template <class V>
void Fields(V& v, Price& x) {
  v.Struct(x, x.usd, x.jpy, x.kind, x.date, x.source);
}
template <class V>
void Fields(V& v, MemoryFigure& x) {
  v.Struct(x, x.bytes, x.how, x.ecc);
}
template <class V>
void Fields(V& v, MigProfile& x) {
  v.Struct(x, x.name, x.bytes, x.max_instances);
}
template <class V>
void Fields(V& v, UnifiedMemory& x) {
  v.Struct(x, x.rule, x.gpu_fraction, x.note);
}
template <class V>
void Fields(V& v, Gpu& x) {
  v.Struct(x, x.id, x.name, x.vendor, x.architecture, x.year, x.form_factor, x.memory_quoted_value,
           x.memory_quoted_unit, x.memory_type, x.memory_quoted_bytes, x.memory_reported, x.memory_runtime,
           x.memory_derived, x.runtime_devices, x.unified, x.bandwidth_bytes_per_s, x.dense_flops, x.sparse_flops,
           x.sparsity_factor, x.tdp_w, x.l2_cache_bytes, x.compute_units, x.compute_unit_kind, x.boost_clock_hz,
           x.interconnect, x.pcie_gen, x.pcie_lanes, x.ecc, x.ecc_default_on, x.ecc_reserved_fraction, x.ecc_note,
           x.mig, x.mig_profiles, x.prices, x.sources);
}
template <class V>
void Fields(V& v, MoeSpec& x) {
  v.Struct(x, x.experts, x.experts_per_token, x.shared_experts, x.expert_intermediate, x.shared_intermediate,
           x.first_dense_layers, x.layer_period, x.layer_offset, x.expert_bias);
}
template <class V>
void Fields(V& v, MlaSpec& x) {
  v.Struct(x, x.q_lora_rank, x.kv_lora_rank, x.qk_nope_head_dim, x.qk_rope_head_dim, x.v_head_dim, x.indexer_heads,
           x.indexer_head_dim);
}
template <class V>
void Fields(V& v, MambaSpec& x) {
  v.Struct(x, x.d_state, x.d_conv, x.expand, x.dt_rank, x.conv_bias, x.proj_bias, x.inner_norms, x.attn_period,
           x.attn_offset);
}
template <class V>
void Fields(V& v, LinearAttnSpec& x) {
  v.Struct(x, x.key_heads, x.value_heads, x.key_head_dim, x.value_head_dim, x.conv_kernel, x.full_attention_interval,
           x.gated_attention, x.full_layers);
}
template <class V>
void Fields(V& v, Model& x) {
  v.Struct(x, x.id, x.name, x.hf_repo, x.model_type, x.params, x.active_params, x.layers, x.hidden, x.heads, x.kv_heads,
           x.head_dim, x.intermediate, x.vocab, x.max_context, x.tie_embeddings, x.gated_mlp, x.qkv_bias, x.out_bias,
           x.mlp_bias, x.layer_norm, x.norms_per_layer, x.qk_norm, x.embedding_norm, x.learned_positions,
           x.attention_sinks, x.final_norm, x.lm_head_bias, x.token_types, x.router_bias, x.moe_with_dense,
           x.moe_layer_extra, x.layer_extra, x.global_head_dim, x.global_kv_heads, x.global_k_eq_v, x.encoder_only,
           x.head_params, x.head_what, x.vision_params, x.vision_what, x.mtp_layers, x.published_excludes_vision,
           x.published_includes_mtp, x.active_excludes, x.sliding_window, x.sliding_layers, x.moe, x.mla, x.mamba,
           x.linear, x.notes, x.sources);
}
template <class V>
void Fields(V& v, WeightFormat& x) {
  v.Struct(x, x.id, x.name, x.bits_per_weight, x.layer_bits, x.routed_bits, x.input_embedding_bits, x.lm_head_bits,
           x.tensor_bits_why, x.extra_kernels_per_gemm, x.derivation, x.source);
}
template <class V>
void Fields(V& v, KvFormat& x) {
  v.Struct(x, x.id, x.name, x.bytes_per_element, x.derivation, x.source);
}
template <class V>
void Fields(V& v, InterconnectSpec& x) {
  v.Struct(x, x.id, x.name, x.kind, x.generation, x.links, x.domain_gpus, x.raw_bytes_per_s, x.effective_bytes_per_s,
           x.bidirectional_bytes_per_s, x.domain_total_bytes_per_s, x.measured_busbw_bytes_per_s, x.latency_s, x.scope,
           x.notes, x.sources);
}
template <class V>
void Fields(V& v, MeasuredCeiling& x) {
  v.Struct(x, x.id, x.gpu, x.what, x.precision, x.gpus, x.message_bytes, x.value, x.tool, x.notes, x.sources);
}
template <class V>
void Fields(V& v, CloudOffer& x) {
  v.Struct(x, x.id, x.provider, x.instance, x.gpu, x.interconnect, x.region, x.date, x.notes, x.gpu_count,
           x.on_demand_usd_per_hour, x.spot_usd_per_hour, x.reserved_1y_usd_per_hour, x.on_demand_jpy_per_hour,
           x.spot_jpy_per_hour, x.monthly_jpy, x.access, x.sources);
}
template <class V>
void Fields(V& v, FxRate& x) {
  v.Struct(x, x.id, x.currency, x.per_usd, x.date, x.notes, x.source);
}
template <class V>
void Fields(V& v, EngineExample& x) {
  v.Struct(x, x.model, x.gpu, x.workspace_bytes, x.source);
}
template <class V>
void Fields(V& v, Band& x) {
  v.Struct(x, x.lo, x.hi, x.cases, x.basis);
}
template <class V>
void Fields(V& v, ClassBand& x) {
  v.Struct(x, x.phase, x.moe, x.multi_gpu, x.vendor, x.band);
}
template <class V>
void Fields(V& v, VendorCalibration& x) {
  v.Struct(x, x.vendor, x.decode_bw_efficiency, x.kernel_s, x.cases);
}
template <class V>
void Fields(V& v, EngineCalibration& x) {
  v.Struct(x, x.decode_bw_efficiency, x.prefill_compute_efficiency, x.kernel_s, x.prefill_token_layer_s, x.decode,
           x.prefill, x.memory, x.classes, x.by_vendor, x.decode_wide, x.prefill_wide, x.serve_throughput, x.serve_ttft,
           x.serve_tpot, x.serve_e2e, x.basis);
}
template <class V>
void Fields(V& v, EngineReserveTier& x) {
  v.Struct(x, x.below_gib, x.chunk_tokens, x.graphs_tp_below_4, x.graphs_tp_4_up);
}
template <class V>
void Fields(V& v, EngineReserve& x) {
  v.Struct(x, x.constant_mib, x.per_chunk_token_mib, x.min_chunk_tokens, x.per_graph_batch_mib, x.per_8_gpus_mib,
           x.floor_mib, x.floor_above_gib, x.tiers);
}
template <class V>
void Fields(V& v, EngineProfile::SmallGpuDefaults& x) {
  v.Struct(x, x.below_gib, x.name_contains, x.max_batched_tokens, x.max_num_seqs);
}
template <class V>
void Fields(V& v, EngineScheduler& x) {
  v.Struct(x, x.mixed_steps, x.chunked_prefill, x.reserve_whole, x.preempt_fewest_outputs, x.seqs_from_pool,
           x.budget_covers_model_len, x.chunked_above_model_len, x.chunked_budget, x.burst_streams_each_step, x.why);
}
template <class V>
void Fields(V& v, EngineProfile& x) {
  v.Struct(x, x.id, x.name, x.version, x.base, x.serves_from, x.serves_before, x.calibration, x.calibrate_like,
           x.memory_fraction, x.memory_fraction_of, x.memory_cap, x.workspace_model, x.reserve, x.micro_batch_tokens,
           x.input_embedding_on_host, x.layer_offload, x.fused_elementwise, x.fp16_accumulate_gemm, x.gguf_int8_matmul,
           x.multi_gpu, x.multi_gpu_modes, x.multi_gpu_notes, x.scheduler, x.kv_block_tokens, x.max_batched_tokens,
           x.max_num_seqs, x.small_gpu, x.sampler_bytes_per_logit, x.multi_gpu_buffers_bytes,
           x.cuda_graph_bytes_per_layer, x.cuda_graphs_in_budget, x.eager_kernel_s, x.cuda_context_bytes,
           x.activation_workspace, x.notes, x.examples, x.sources);
}
constexpr char kMagic[] = "gpuplan-compact-catalog-2";

class Writer {
 public:
  std::string out;

  template <class T, class... F>
  void Struct(T&, F&... fields) {
    static_assert(sizeof...(F) == FieldCount<T>(), "a catalog struct's field list (compact.cpp) misses a field");
    (Put(fields), ...);
  }
  void Put(const std::string& s) {
    Put(static_cast<std::uint32_t>(s.size()));
    out.append(s);
  }
  void Put(bool b) { out.push_back(b ? 1 : 0); }
  template <class T>
  requires std::is_arithmetic_v<T> || std::is_enum_v<T>
  void Put(T v) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    out.append(bytes, sizeof(T));
  }
  template <class T>
  void Put(const std::vector<T>& v) {
    Put(static_cast<std::uint32_t>(v.size()));
    for (const auto& e : v) Put(static_cast<const T&>(e));
  }
  void Put(const std::vector<bool>& v) {
    Put(static_cast<std::uint32_t>(v.size()));
    for (bool e : v) Put(e);
  }
  template <class T>
  void Put(const std::optional<T>& o) {
    Put(o.has_value());
    if (o) Put(*o);
  }
  template <class K, class V>
  void Put(const std::map<K, V>& m) {
    Put(static_cast<std::uint32_t>(m.size()));
    for (const auto& [k, v] : m) Put(k), Put(v);
  }
  template <class A, class B>
  void Put(const std::pair<A, B>& p) {
    Put(p.first), Put(p.second);
  }
  template <class T>
  requires std::is_class_v<T>
  void Put(const T& s) {
    Fields(*this, const_cast<T&>(s));  // the lists take T& for the reader; the writer only reads
  }
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok = true;
  bool AtEnd() const { return pos_ == in_.size(); }

  template <class T, class... F>
  void Struct(T&, F&... fields) {
    static_assert(sizeof...(F) == FieldCount<T>(), "a catalog struct's field list (compact.cpp) misses a field");
    (Get(fields), ...);
  }
  void Get(std::string& s) {
    const std::uint32_t n = Count(1);
    if (!ok) return;
    s.assign(in_.data() + pos_, n);
    pos_ += n;
  }
  void Get(bool& b) {
    char c = 0;
    Bytes(&c, 1);
    b = c != 0;
  }
  template <class T>
  requires std::is_arithmetic_v<T> || std::is_enum_v<T>
  void Get(T& v) { Bytes(&v, sizeof(T)); }
  template <class T>
  void Get(std::vector<T>& v) {
    const std::uint32_t n = Count(1);
    v.clear();
    v.reserve(n);
    for (std::uint32_t i = 0; i < n && ok; ++i) Get(v.emplace_back());
  }
  void Get(std::vector<bool>& v) {
    const std::uint32_t n = Count(1);
    v.assign(n, false);
    for (std::uint32_t i = 0; i < n && ok; ++i) {
      bool b = false;
      Get(b);
      v[i] = b;
    }
  }
  template <class T>
  void Get(std::optional<T>& o) {
    bool has = false;
    Get(has);
    if (has) {
      // Not o.emplace(): clang checks T's default constructor where T is a nested struct with
      // member initializers inside its still-incomplete enclosing class (EngineProfile's
      // SmallGpuDefaults) and finds none; a moved-in T{} is the same.
      o = T{};
      Get(*o);
    } else
      o.reset();
  }
  template <class K, class V>
  void Get(std::map<K, V>& m) {
    const std::uint32_t n = Count(2);
    m.clear();
    for (std::uint32_t i = 0; i < n && ok; ++i) {
      K k{};
      V v{};
      Get(k), Get(v);
      m.emplace(std::move(k), std::move(v));
    }
  }
  template <class A, class B>
  void Get(std::pair<A, B>& p) {
    Get(p.first), Get(p.second);
  }
  template <class T>
  requires std::is_class_v<T>
  void Get(T& s) { Fields(*this, s); }

 private:
  void Bytes(void* to, std::size_t n) {
    if (!ok || in_.size() - pos_ < n) {
      ok = false;
      return;
    }
    std::memcpy(to, in_.data() + pos_, n);
    pos_ += n;
  }
  // A count of elements each at least `min_bytes` long: more than the bytes left is corrupt.
  std::uint32_t Count(std::size_t min_bytes) {
    std::uint32_t n = 0;
    Bytes(&n, sizeof n);
    if (ok && static_cast<std::size_t>(n) * min_bytes > in_.size() - pos_) ok = false;
    return ok ? n : 0;
  }
  std::string_view in_;
  std::size_t pos_ = 0;
};

// The catalog itself: its lists and flags; the id indexes are rebuilt (IndexIds).
template <class V>
void CatalogFields(V& v, Catalog& x) {
  static_assert(FieldCount<Catalog>() == 16, "a Catalog field was added: write it here too (or say why it is rebuilt)");
  v.Put(x.catalog_version), v.Put(x.catalog_date), v.Put(x.warnings), v.Put(x.unknown_fields), v.Put(x.sources_elsewhere),
      v.Put(x.gpus), v.Put(x.models), v.Put(x.weight_formats);
  v.Put(x.kv_formats), v.Put(x.interconnects), v.Put(x.cloud_offers), v.Put(x.engines), v.Put(x.ceilings);
  v.Put(x.fx_rates);
}
template <>
void CatalogFields(Reader& v, Catalog& x) {
  v.Get(x.catalog_version), v.Get(x.catalog_date), v.Get(x.warnings), v.Get(x.unknown_fields), v.Get(x.sources_elsewhere),
      v.Get(x.gpus), v.Get(x.models), v.Get(x.weight_formats);
  v.Get(x.kv_formats), v.Get(x.interconnects), v.Get(x.cloud_offers), v.Get(x.engines), v.Get(x.ceilings);
  v.Get(x.fx_rates);
}

}  // namespace

std::string WriteCompactCatalog(const Catalog& catalog) {
  Writer w;
  w.out.append(kMagic, sizeof kMagic);
  Catalog copy = catalog;
  CatalogFields(w, copy);
  return std::move(w.out);
}

Result<Catalog> ReadCompactCatalog(std::string_view bytes) {
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return Error{"compact catalog: not one this build writes (" + std::string(kMagic) + ")"};
  Reader r(bytes.substr(sizeof kMagic));
  Catalog c;
  CatalogFields(r, c);
  if (!r.ok || !r.AtEnd()) return Error{"compact catalog: truncated or corrupt"};
  c.IndexIds();
  return c;
}

}  // namespace gpuplan
