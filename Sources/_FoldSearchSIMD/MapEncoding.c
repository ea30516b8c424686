// MapEncoding.c — the fold's map notes, delta-coded (fssimd_map_encode_notes).
//
// Idea: FoldSearch's `OffsetMap` keeps its entries delta-coded, one byte for
// most (see fssimd_map_encode_entry). The fold records a note per change of
// shift, and almost every note becomes an entry, so this loop runs about
// once per accented letter or Hangul syllable. Its state (two entries'
// positions, shifts and flags, the output, the bound) must stay in
// registers: written in Swift the loop spilled, and C lets the count of
// stores be derived at the end (a note consumed stores the pending entry
// unless dropped).
// With AVX-512, a vector layer encodes eight notes at a time (below; with
// AVX2, four).
//
// Invariants: the entry encoded is always the pending one, relative to the
// last stored one, so each store writes the difference of two registers;
// the rules are OffsetMap.Builder.append's for notes at increasing folded
// positions.
#include "FoldSearchSIMD.h"

#include <string.h>

// The portable loop: every rule, one note at a time.
static int64_t fssimd_map_encode_notes_portable(const fssimd_fold_note *notes, int64_t count,
                                                fssimd_map_builder *builder) {
  const int64_t mask = FSSIMD_FOLD_NOTE_ATOMIC - 1;
  int64_t newest_folded = builder->newest_raw & mask;
  int64_t newest_flag = builder->newest_raw & FSSIMD_FOLD_NOTE_ATOMIC;
  int64_t newest_shift = builder->newest_shift;
  int64_t last_folded = builder->last_raw & mask;
  int64_t last_flag = builder->last_raw & FSSIMD_FOLD_NOTE_ATOMIC;
  int64_t last_shift = builder->last_shift;
  uint8_t *out = builder->out;
  const fssimd_fold_note *note = notes;
  const fssimd_fold_note *const end = notes + count;
  // Every note consumed stores the pending entry unless it is dropped or
  // replaces it, so the stores are counted once at the end (fewer live
  // registers).
  int64_t dropped = 0;
  for (; note < end; note++) {
    const int64_t raw = note->folded_and_flag;
    const int64_t folded = raw & mask;
    const int64_t shift = note->original - folded;
    const int64_t flag = raw ^ folded;
    if (folded == newest_folded) {
      // The replacing rule (only ignorables lay between): the note takes
      // the pending entry's place, unless the last stored entry predicts it,
      // which leaves no entry pending: that case is the caller's.
      if ((flag | last_flag) == 0 && shift == last_shift) break;
      newest_flag = flag;
      newest_shift = shift;
      dropped++;  // it stores nothing
      continue;
    }
    if ((flag | newest_flag) == 0 && shift == newest_shift) {  // predicted
      dropped++;
      continue;
    }
    out = fssimd_map_encode_entry(out, newest_folded - last_folded, newest_shift - last_shift,
                                  newest_flag != 0);
    last_folded = newest_folded;
    last_flag = newest_flag;
    last_shift = newest_shift;
    newest_folded = folded;
    newest_flag = flag;
    newest_shift = shift;
  }
  const int64_t consumed = note - notes;
  builder->newest_raw = newest_folded | newest_flag;
  builder->newest_shift = newest_shift;
  builder->last_raw = last_folded | last_flag;
  builder->last_shift = last_shift;
  builder->out = out;
  builder->stored += consumed - dropped;
  return consumed;
}

#if defined(__x86_64__)
#include <immintrin.h>

// The vector layer, eight notes at a time (AVX-512: a note's two words in
// a lane each, then one 64-bit lane per note).
//
// Idea: without dropped notes and stops, the entries a chunk of notes
// stores are fixed by the notes alone: note j stores the entry before it
// (the pending one, note j − 1, or the builder's pending entry for the
// first), encoded after the one before that. Shifting the chunk's lanes by
// one and by two (valignq, carrying the previous chunk's last lanes) lines
// each stored entry up with the one it is encoded after; each lane then
// encodes its entry in the one- to four-byte forms of
// fssimd_map_encode_entry into four bytes of a 32-byte vector, and a
// compress (vpcompressb) packs the bytes each form uses.
//
// A note followed by one at the same folded position (marks dropped one
// after another) leaves its chunk first (a compress), which the replacing
// rule comes to: the later note replaces it as the pending entry, with the
// entry stored before it as the last one, and whether the later note is
// then stored or dropped depends on that entry alone, as if the earlier
// note had never been.
//
// Invariants: a chunk is encoded only when none of its kept notes is
// dropped (the rule the portable loop applies: not atomic, and the same
// shift as the pending entry), the first is not at the pending entry's
// folded position, and every entry fits four bytes (a gap of at most 16,446
// folded bytes, a shift change whose zigzag code is below 0x80); otherwise
// the portable loop takes the chunk. So the bytes equal the portable
// loop's (MapEncodingTests compares them on random notes).

// Shared by the vector layers: the carries broadcast from the builder (T
// the vector type, SET1 its 64-bit broadcast; each entry split into its
// folded position, flag bits and shift), and the builder taken back from
// the carries' last lanes (LAST reads a vector's last lane, OR is the
// width's bitwise or) with the notes' stores.
#define FSSIMD_MAP_CARRIES(T, SET1)                                 \
  T cf = SET1(builder->newest_raw & (FSSIMD_FOLD_NOTE_ATOMIC - 1));  \
  T ca = SET1(builder->newest_raw & ~(FSSIMD_FOLD_NOTE_ATOMIC - 1)); \
  T cs = SET1(builder->newest_shift);                               \
  T lf = SET1(builder->last_raw & (FSSIMD_FOLD_NOTE_ATOMIC - 1));    \
  T la = SET1(builder->last_raw & ~(FSSIMD_FOLD_NOTE_ATOMIC - 1));   \
  T ls = SET1(builder->last_shift)
#define FSSIMD_MAP_KEEP(LAST, OR, stores)         \
  do {                                            \
    builder->newest_raw = LAST(OR(cf, ca));       \
    builder->newest_shift = LAST(cs);             \
    builder->last_raw = LAST(OR(lf, la));         \
    builder->last_shift = LAST(ls);               \
    builder->out = out;                           \
    builder->stored += (stores);                  \
  } while (0)

#define FSSIMD_MAP_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt")))

// Encodes whole chunks of eight notes from `notes` while they qualify (see
// above); returns the notes consumed (a multiple of eight) and updates the
// builder as the portable loop would. Caller obligations: those of
// fssimd_map_encode_notes, and the CPU has the AVX-512 subsets above.
FSSIMD_MAP_AVX512 static int64_t fssimd_map_encode_chunks_avx512(const fssimd_fold_note *notes,
                                                                 int64_t count,
                                                                 fssimd_map_builder *builder) {
  const __m512i position_mask = _mm512_set1_epi64(FSSIMD_FOLD_NOTE_ATOMIC - 1);
  const __m512i flag_mask = _mm512_set1_epi64(~(FSSIMD_FOLD_NOTE_ATOMIC - 1));
  const __m512i evens = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
  const __m512i odds = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
  const __m512i one = _mm512_set1_epi64(1), two = _mm512_set1_epi64(2);
  const __m512i sixty_three = _mm512_set1_epi64(63), sixty_four = _mm512_set1_epi64(64);
  const __m512i byte_limit = _mm512_set1_epi64(0x80);
  const __m512i head_bit = _mm512_set1_epi64(0x80), atomic_bit = _mm512_set1_epi64(0x40);
  const __m512i one_byte = _mm512_set1_epi64(0xFF), two_bytes = _mm512_set1_epi64(0xFFFF);
  const __m512i three_bytes = _mm512_set1_epi64(0xFFFFFF);
  const __m512i four_bytes = _mm512_set1_epi64(0xFFFFFFFF);
  const __m512i two_byte_limit = _mm512_set1_epi64(0x4000);
  const __m512i low_seven_bits = _mm512_set1_epi64(0x7F);
  // Lane 7 of each carry: the pending entry (c*) and the last stored (l*).
  FSSIMD_MAP_CARRIES(__m512i, _mm512_set1_epi64);
  const int64_t position_bits = FSSIMD_FOLD_NOTE_ATOMIC - 1;
  uint8_t *out = builder->out;
  int64_t i = 0, stored = 0;
  for (; i + 8 <= count; i += 8) {
    const __m512i low = _mm512_loadu_si512((const void *)(notes + i));
    const __m512i high = _mm512_loadu_si512((const void *)(notes + i + 4));
    const __m512i raw = _mm512_permutex2var_epi64(low, evens, high);
    __m512i f = _mm512_and_si512(raw, position_mask);
    __m512i a = _mm512_and_si512(raw, flag_mask);
    __m512i s = _mm512_sub_epi64(_mm512_permutex2var_epi64(low, odds, high), f);
    // A note the next one replaces (the same folded position: marks
    // dropped one after another) leaves the chunk; the last one's next is
    // the next chunk's first, when the call has it.
    const int64_t after = i + 8 < count ? notes[i + 8].folded_and_flag & position_bits : -1;
    const __mmask8 kept =
        _mm512_cmpneq_epi64_mask(f, _mm512_alignr_epi64(_mm512_set1_epi64(after), f, 1));
    const int k = __builtin_popcount(kept);
    const __mmask8 live = (__mmask8)((1u << k) - 1);
    if (kept != 0xFF) {
      f = _mm512_maskz_compress_epi64(kept, f);
      a = _mm512_maskz_compress_epi64(kept, a);
      s = _mm512_maskz_compress_epi64(kept, s);
    }
    // Each kept note's pending entry (p*) and the entry stored before it
    // (q*), in lanes 0 ..< k.
    const __m512i pf = _mm512_alignr_epi64(f, cf, 7), pa = _mm512_alignr_epi64(a, ca, 7);
    const __m512i ps = _mm512_alignr_epi64(s, cs, 7);
    const __m512i qf = _mm512_alignr_epi64(pf, lf, 7), qs = _mm512_alignr_epi64(ps, ls, 7);
    const __m512i flags = _mm512_or_si512(a, pa);
    const __mmask8 stop = _mm512_cmpeq_epi64_mask(f, pf);
    const __mmask8 drop = _mm512_testn_epi64_mask(flags, flags) & _mm512_cmpeq_epi64_mask(s, ps);
    // The entry each note stores: p after q.
    const __m512i df = _mm512_sub_epi64(pf, qf), ds = _mm512_sub_epi64(ps, qs);
    const __mmask8 atomic = _mm512_test_epi64_mask(pa, pa);
    const __mmask8 short_form = _mm512_cmplt_epu64_mask(_mm512_sub_epi64(df, one), sixty_four) &
                                _mm512_cmplt_epu64_mask(_mm512_sub_epi64(ds, one), two) &
                                (__mmask8)~atomic;
    const __m512i zigzag = _mm512_xor_si512(_mm512_slli_epi64(ds, 1), _mm512_srai_epi64(ds, 63));
    const __mmask8 near = _mm512_cmplt_epi64_mask(df, sixty_three);
    const __m512i far = _mm512_sub_epi64(df, sixty_three);
    const __mmask8 far_byte = _mm512_cmplt_epu64_mask(far, byte_limit);
    const __mmask8 fits =
        _mm512_cmplt_epu64_mask(zigzag, byte_limit) &
        (near | _mm512_cmplt_epu64_mask(far, two_byte_limit));
    if (((stop | drop | (__mmask8)~(short_form | fits)) & live) != 0) break;
    // 0 s dddddd; 1 a dddddd z (df < 63); 1 a 111111 v [v] z.
    const __m512i short_byte = _mm512_or_si512(
        _mm512_slli_epi64(_mm512_sub_epi64(ds, one), 6), _mm512_sub_epi64(df, one));
    const __m512i head = _mm512_mask_or_epi64(
        _mm512_or_si512(head_bit, _mm512_min_epu64(df, sixty_three)), atomic,
        _mm512_or_si512(head_bit, _mm512_min_epu64(df, sixty_three)), atomic_bit);
    const __m512i near_bytes = _mm512_or_si512(head, _mm512_slli_epi64(zigzag, 8));
    // far < 0x80: one varint byte; below 0x4000, two (the low seven bits
    // with the continuation bit, then the rest).
    const __m512i far_low = _mm512_or_si512(_mm512_and_si512(far, low_seven_bits), byte_limit);
    const __m512i far_varint = _mm512_mask_or_epi64(
        _mm512_or_si512(far_low, _mm512_slli_epi64(_mm512_srli_epi64(far, 7), 8)), far_byte, far,
        _mm512_setzero_si512());
    const __m512i far_bytes = _mm512_or_si512(
        _mm512_or_si512(head, _mm512_slli_epi64(far_varint, 8)),
        _mm512_mask_slli_epi64(_mm512_slli_epi64(zigzag, 24), far_byte, zigzag, 16));
    const __m512i bytes = _mm512_mask_blend_epi64(
        short_form, _mm512_mask_blend_epi64(near, far_bytes, near_bytes), short_byte);
    const __m512i used = _mm512_maskz_mov_epi64(
        live, _mm512_mask_blend_epi64(
                  short_form,
                  _mm512_mask_blend_epi64(
                      near, _mm512_mask_blend_epi64(far_byte, four_bytes, three_bytes), two_bytes),
                  one_byte));
    const __mmask32 keep = _mm256_movepi8_mask(_mm512_cvtepi64_epi32(used));
    // SAFETY: 32 bytes at out lie inside the room for eight entries (the
    // caller's count × FSSIMD_MAP_ENTRY_MAX), of which popcount(keep) are
    // kept.
    _mm256_storeu_si256((__m256i *)out,
                        _mm256_maskz_compress_epi8(keep, _mm512_cvtepi64_epi32(bytes)));
    out += __builtin_popcount(keep);
    stored += k;
    if (k == 8) {
      cf = f;
      ca = a;
      cs = s;
      lf = pf;
      la = pa;
      ls = ps;
    } else if (k > 0) {
      // The carries' lane 7 from lane k − 1 (all lanes, as a broadcast).
      const __m512i last_kept = _mm512_set1_epi64(k - 1);
      cf = _mm512_permutexvar_epi64(last_kept, f);
      ca = _mm512_permutexvar_epi64(last_kept, a);
      cs = _mm512_permutexvar_epi64(last_kept, s);
      lf = _mm512_permutexvar_epi64(last_kept, pf);
      la = _mm512_permutexvar_epi64(last_kept, pa);
      ls = _mm512_permutexvar_epi64(last_kept, ps);
    }
  }
#define FSSIMD_LAST(v) _mm256_extract_epi64(_mm512_extracti64x4_epi64((v), 1), 3)
  if (i > 0) FSSIMD_MAP_KEEP(FSSIMD_LAST, _mm512_or_si512, stored);
#undef FSSIMD_LAST
  return i;
}
#undef FSSIMD_MAP_AVX512

// The same with AVX2, four notes at a time: without mask registers and
// compresses, a chunk whose notes replace one another goes to the portable
// loop, and the four entries (one to four bytes each, built in 32-bit
// lanes) are stored one after another, each with a four-byte store.
#define FSSIMD_MAP_AVX2 __attribute__((target("avx2,popcnt")))

// Encodes whole chunks of four notes while they qualify; returns the notes
// consumed (a multiple of four) and updates the builder. Caller
// obligations: those of fssimd_map_encode_notes, and the CPU has AVX2.
FSSIMD_MAP_AVX2 static int64_t fssimd_map_encode_chunks_avx2(const fssimd_fold_note *notes,
                                                             int64_t count,
                                                             fssimd_map_builder *builder) {
  const __m256i position_mask = _mm256_set1_epi64x(FSSIMD_FOLD_NOTE_ATOMIC - 1);
  const __m256i flag_mask = _mm256_set1_epi64x(~(FSSIMD_FOLD_NOTE_ATOMIC - 1));
  const __m256i zero = _mm256_setzero_si256();
  const __m256i one = _mm256_set1_epi64x(1), two = _mm256_set1_epi64x(2);
  const __m256i sixty_three = _mm256_set1_epi64x(63), sixty_four = _mm256_set1_epi64x(64);
  const __m256i byte_limit = _mm256_set1_epi64x(0x80), two_byte_limit = _mm256_set1_epi64x(0x4000);
  const __m256i low_seven_bits = _mm256_set1_epi64x(0x7F);
  const __m256i head_bit = _mm256_set1_epi64x(0x80), atomic_bit = _mm256_set1_epi64x(0x40);
  // Lane 3 of each carry: the pending entry (c*) and the last stored (l*).
  FSSIMD_MAP_CARRIES(__m256i, _mm256_set1_epi64x);
  uint8_t *out = builder->out;
  int64_t i = 0;
// Lanes (carry[3], v[0], v[1], v[2]): each note's predecessor.
#define FSSIMD_AFTER(v, carry)                                                      \
  _mm256_blend_epi32(_mm256_permute4x64_epi64((v), _MM_SHUFFLE(2, 1, 0, 3)),       \
                     _mm256_permute4x64_epi64((carry), _MM_SHUFFLE(3, 3, 3, 3)), 0x03)
#define FSSIMD_LANES(v) _mm256_movemask_pd(_mm256_castsi256_pd(v))
  for (; i + 4 <= count; i += 4) {
    const __m256i low = _mm256_loadu_si256((const __m256i *)(notes + i));
    const __m256i high = _mm256_loadu_si256((const __m256i *)(notes + i + 2));
    // (raw, original) pairs to four raws and four originals, in order.
    const __m256i raw = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(low, high),
                                                 _MM_SHUFFLE(3, 1, 2, 0));
    const __m256i original = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(low, high),
                                                      _MM_SHUFFLE(3, 1, 2, 0));
    const __m256i f = _mm256_and_si256(raw, position_mask);
    const __m256i a = _mm256_and_si256(raw, flag_mask);
    const __m256i s = _mm256_sub_epi64(original, f);
    const __m256i pf = FSSIMD_AFTER(f, cf), pa = FSSIMD_AFTER(a, ca), ps = FSSIMD_AFTER(s, cs);
    const __m256i qf = FSSIMD_AFTER(pf, lf), qs = FSSIMD_AFTER(ps, ls);
    const int stop = FSSIMD_LANES(_mm256_cmpeq_epi64(f, pf));
    const int drop = FSSIMD_LANES(_mm256_and_si256(_mm256_cmpeq_epi64(_mm256_or_si256(a, pa), zero),
                                                   _mm256_cmpeq_epi64(s, ps)));
    // The entry each note stores: p after q (df >= 1, so the signed
    // compares below are the unsigned ones of the AVX-512 layer; positions
    // below 2^62 keep the zigzag code below 2^63).
    const __m256i df = _mm256_sub_epi64(pf, qf), ds = _mm256_sub_epi64(ps, qs);
    const __m256i atomic = _mm256_xor_si256(_mm256_cmpeq_epi64(pa, zero), _mm256_set1_epi64x(-1));
    const __m256i short_form = _mm256_andnot_si256(
        atomic, _mm256_and_si256(_mm256_cmpgt_epi64(sixty_four, _mm256_sub_epi64(df, one)),
                                 _mm256_or_si256(_mm256_cmpeq_epi64(ds, one),
                                                 _mm256_cmpeq_epi64(ds, two))));
    const __m256i zigzag =
        _mm256_xor_si256(_mm256_slli_epi64(ds, 1), _mm256_cmpgt_epi64(zero, ds));
    const __m256i near = _mm256_cmpgt_epi64(sixty_three, df);
    const __m256i far = _mm256_sub_epi64(df, sixty_three);
    const __m256i far_byte = _mm256_cmpgt_epi64(byte_limit, far);
    const __m256i fits = _mm256_and_si256(
        _mm256_cmpgt_epi64(byte_limit, zigzag),
        _mm256_or_si256(near, _mm256_cmpgt_epi64(two_byte_limit, far)));
    if ((stop | drop | (FSSIMD_LANES(_mm256_or_si256(short_form, fits)) ^ 0xF)) != 0) break;
    const __m256i short_byte = _mm256_or_si256(_mm256_slli_epi64(_mm256_sub_epi64(ds, one), 6),
                                               _mm256_sub_epi64(df, one));
    const __m256i head = _mm256_or_si256(
        _mm256_or_si256(head_bit, _mm256_blendv_epi8(sixty_three, df, near)),
        _mm256_and_si256(atomic, atomic_bit));
    const __m256i near_bytes = _mm256_or_si256(head, _mm256_slli_epi64(zigzag, 8));
    const __m256i far_low = _mm256_or_si256(_mm256_and_si256(far, low_seven_bits), byte_limit);
    const __m256i far_varint = _mm256_blendv_epi8(
        _mm256_or_si256(far_low, _mm256_slli_epi64(_mm256_srli_epi64(far, 7), 8)), far, far_byte);
    const __m256i far_bytes = _mm256_or_si256(
        _mm256_or_si256(head, _mm256_slli_epi64(far_varint, 8)),
        _mm256_blendv_epi8(_mm256_slli_epi64(zigzag, 24), _mm256_slli_epi64(zigzag, 16), far_byte));
    const __m256i bytes = _mm256_blendv_epi8(_mm256_blendv_epi8(far_bytes, near_bytes, near),
                                             short_byte, short_form);
    // Lengths 1 (short), 2 (near), 3 (one varint byte) or 4.
    const __m256i lengths = _mm256_blendv_epi8(
        _mm256_blendv_epi8(_mm256_blendv_epi8(_mm256_set1_epi64x(4), _mm256_set1_epi64x(3),
                                              far_byte),
                           two, near),
        one, short_form);
    uint64_t entry[4], length[4];
    _mm256_storeu_si256((__m256i *)entry, bytes);
    _mm256_storeu_si256((__m256i *)length, lengths);
    // SAFETY: each four-byte store lies inside the room for the entries
    // (FSSIMD_MAP_ENTRY_MAX bytes each) stored so far and this one.
    for (int j = 0; j < 4; j++) {
      const uint32_t word = (uint32_t)entry[j];
      memcpy(out, &word, 4);
      out += length[j];
    }
    cf = f;
    ca = a;
    cs = s;
    lf = pf;
    la = pa;
    ls = ps;
  }
#undef FSSIMD_AFTER
#undef FSSIMD_LANES
#define FSSIMD_LAST(v) _mm256_extract_epi64((v), 3)
  if (i > 0) FSSIMD_MAP_KEEP(FSSIMD_LAST, _mm256_or_si256, i);
#undef FSSIMD_LAST
  return i;
}
#undef FSSIMD_MAP_AVX2
#undef FSSIMD_MAP_CARRIES
#undef FSSIMD_MAP_KEEP
#endif

// Vector chunks of `width` notes while they qualify; a chunk that does not
// goes through the portable loop, which returns early only at a stop.
static inline int64_t fssimd_map_encode_in_chunks(
    const fssimd_fold_note *notes, int64_t count, fssimd_map_builder *builder, int64_t width,
    int64_t (*chunks)(const fssimd_fold_note *, int64_t, fssimd_map_builder *)) {
  int64_t done = 0;
  while (count - done >= width) {
    done += chunks(notes + done, count - done, builder);
    if (count - done < width) break;
    const int64_t taken = fssimd_map_encode_notes_portable(notes + done, width, builder);
    done += taken;
    if (taken < width) return done;
  }
  return done + fssimd_map_encode_notes_portable(notes + done, count - done, builder);
}

int64_t fssimd_map_encode_notes_at(int32_t level, const fssimd_fold_note *notes, int64_t count,
                                   fssimd_map_builder *builder) {
#if defined(__x86_64__)
  const int32_t best = fssimd_best_level();
  if (level >= FSSIMD_LEVEL_AVX512 && best >= FSSIMD_LEVEL_AVX512) {
    return fssimd_map_encode_in_chunks(notes, count, builder, 8, fssimd_map_encode_chunks_avx512);
  }
  if (level >= FSSIMD_LEVEL_AVX2 && best >= FSSIMD_LEVEL_AVX2) {
    return fssimd_map_encode_in_chunks(notes, count, builder, 4, fssimd_map_encode_chunks_avx2);
  }
#endif
  (void)level;
  return fssimd_map_encode_notes_portable(notes, count, builder);
}

int64_t fssimd_map_encode_notes(const fssimd_fold_note *notes, int64_t count,
                                fssimd_map_builder *builder) {
  return fssimd_map_encode_notes_at(fssimd_best_level(), notes, count, builder);
}
