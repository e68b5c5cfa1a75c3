// A C interface to one oneDNN reorder primitive (Debian's libdnnl-dev 2.6), for
// `peer-onednn` (src/main.rs): the tensors live in oneDNN's own buffers; Rust fills the source
// and reads the destination through the data handles.
#include <dnnl.hpp>
#include <omp.h>
#include <cstdint>
#include <cstring>
#include <string>

using namespace dnnl;
using tag = memory::format_tag;

namespace {
bool parse_tag(const char *name, tag *out) {
    const std::string s = name;
#define T(x) if (s == #x) { *out = tag::x; return true; }
    T(nchw) T(nhwc) T(chwn) T(nChw4c) T(nChw8c) T(nChw16c) T(oihw) T(hwio) T(OIhw16i16o)
    T(OIhw16o16i) T(OIhw8i8o) T(OIhw4i4o)
#undef T
    return false;
}

// Every tag the descriptor check asks oneDNN about: the catalog's `onednn` module and a few
// positional spellings.
bool parse_any_tag(const char *name, tag *out) {
    const std::string s = name;
#define T(x) if (s == #x) { *out = tag::x; return true; }
    T(nchw) T(nhwc) T(chwn) T(nChw4c) T(nChw8c) T(nChw16c) T(nChw32c) T(NChw16n16c) T(ncdhw)
    T(ndhwc) T(nCdhw16c) T(oihw) T(hwio) T(ohwi) T(iohw) T(OIhw8i8o) T(OIhw16i16o) T(OIhw16o16i)
    T(IOhw16o16i) T(OIhw4i16o4i) T(OIhw8i16o2i) T(Ohwi16o) T(goihw) T(gOIhw16i16o) T(ncw) T(nwc)
    T(nCw8c) T(nCw16c) T(oiw) T(oidhw) T(OIdhw16i16o) T(aBcd16b) T(aBcd8b) T(ABcd16b16a)
    T(aBCd16b16c) T(ABcd4b16a4b) T(abcd) T(acdb)
#undef T
    return false;
}

bool parse_type(const char *name, memory::data_type *out) {
    const std::string s = name;
    if (s == "f32") *out = memory::data_type::f32;
    else if (s == "f16") *out = memory::data_type::f16;
    else if (s == "bf16") *out = memory::data_type::bf16;
    else if (s == "u8") *out = memory::data_type::u8;
    else if (s == "s8") *out = memory::data_type::s8;
    else return false;
    return true;
}
}  // namespace

struct peer_reorder {
    engine eng{engine::kind::cpu, 0};
    stream strm{eng};
    memory src, dst;
    reorder prim;
};

extern "C" {

// Sets how many OpenMP threads oneDNN's primitives use from now on.
void peer_threads(int n) { omp_set_num_threads(n); }

// A reorder from `src_tag` to `dst_tag` of a 4-D tensor of `dims` and element type `ty`, or
// null if oneDNN does not know a name or cannot make the primitive.
peer_reorder *peer_new(const char *src_tag, const char *dst_tag, const int64_t *dims,
                       const char *ty) {
    tag from, to;
    memory::data_type dt;
    if (!parse_tag(src_tag, &from) || !parse_tag(dst_tag, &to) || !parse_type(ty, &dt))
        return nullptr;
    try {
        auto *p = new peer_reorder;
        memory::dims d(dims, dims + 4);
        p->src = memory({d, dt, from}, p->eng);
        p->dst = memory({d, dt, to}, p->eng);
        std::memset(p->src.get_data_handle(), 0, p->src.get_desc().get_size());
        std::memset(p->dst.get_data_handle(), 0, p->dst.get_desc().get_size());
        p->prim = reorder(p->src, p->dst);
        return p;
    } catch (...) {
        return nullptr;
    }
}

void *peer_src(peer_reorder *p) { return p->src.get_data_handle(); }
size_t peer_src_bytes(peer_reorder *p) { return p->src.get_desc().get_size(); }
void *peer_dst(peer_reorder *p) { return p->dst.get_data_handle(); }
size_t peer_dst_bytes(peer_reorder *p) { return p->dst.get_desc().get_size(); }

// Runs the reorder once and waits for it.
void peer_run(peer_reorder *p) {
    p->prim.execute(p->strm, p->src, p->dst);
    p->strm.wait();
}

void peer_free(peer_reorder *p) { delete p; }

// oneDNN's blocking descriptor of `tag` on `ndims` dims (f32): writes the padded dims, the
// strides, the inner blocks and their dimensions (DNNL_MAX_NDIMS entries each), the number of
// inner blocks, offset0 and whether every padded offset is zero. Returns false when oneDNN
// does not know the tag, cannot make the descriptor or describes it other than as blocked.
bool peer_blocking(const char *tag_name, int ndims, const int64_t *dims, int64_t *padded,
                   int64_t *strides, int64_t *inner_blks, int64_t *inner_idxs,
                   int *inner_nblks, int64_t *offset0, bool *padded_offsets_zero) {
    tag t;
    if (!parse_any_tag(tag_name, &t) || ndims < 1 || ndims > DNNL_MAX_NDIMS) return false;
    try {
        memory::desc md(memory::dims(dims, dims + ndims), memory::data_type::f32, t);
        const dnnl_memory_desc_t &d = md.data;
        if (d.format_kind != dnnl_blocked || d.ndims != ndims) return false;
        const dnnl_blocking_desc_t &b = d.format_desc.blocking;
        *padded_offsets_zero = true;
        for (int k = 0; k < ndims; ++k) {
            padded[k] = d.padded_dims[k];
            strides[k] = b.strides[k];
            *padded_offsets_zero = *padded_offsets_zero && d.padded_offsets[k] == 0;
        }
        for (int k = 0; k < b.inner_nblks; ++k) {
            inner_blks[k] = b.inner_blks[k];
            inner_idxs[k] = b.inner_idxs[k];
        }
        *inner_nblks = b.inner_nblks;
        *offset0 = d.offset0;
        return true;
    } catch (...) {
        return false;
    }
}
}
