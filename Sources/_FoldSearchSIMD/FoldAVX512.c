// FoldAVX512.c — the fold's fast path with 64-byte vectors
// (fssimd_fold_run at FSSIMD_LEVEL_AVX512): blocks dense with two- and
// three-byte scalars folded with byte permutes (vpermi2b) from the lanes
// (Tables.c) and compressed (vpcompressb); sparse stretches handed to the
// AVX2 loop (FoldVector.c); the scalar part (FoldScalar.h) between them.
// The idea, the invariants and the citation are at the kernel below.
#include "FoldScalar.h"

#if defined(FSSIMD_HAS_X86)
// Compiled for these AVX-512 subsets only inside the functions marked with
// it; each has the caller obligation that the CPU supports them (the
// dispatcher calls them only at FSSIMD_LEVEL_AVX512, after fssimd_clamp).
#define FSSIMD_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt,avx2")))

// vpermi2b on a 128-byte table at t (two vectors), indexed by the low
// seven bits of each byte of idx.
#define FSSIMD_LOOKUP128(t, idx)                                               \
  _mm512_permutex2var_epi8(_mm512_loadu_si512((const void *)(t)), (idx),     \
                           _mm512_loadu_si512((const void *)((t) + 64)))

// The fold's fast path with 64-byte vectors (fssimd_fold_run at
// FSSIMD_LEVEL_AVX512).
//
// Idea: a block of 64 input bytes made of ASCII, two-byte scalars and
// three-byte scalars that fold to themselves folds without a branch per
// scalar. ASCII lanes are lowercased as in the narrower kernels. Two-byte
// scalars are looked up 64 at a time: the lane arrays (fssimd_fold_lanes)
// hold the 64 folds of each lead byte as one vector, so the two leads of a
// pair (C2/C3, C4/C5, CE/CF, D0/D1, ...) are one 128-byte table that a
// two-table byte permute (vpermi2b) indexes with the lead's low bit and the
// continuation's low six bits. A block holds one or two such pairs (C2/C3
// for Western European text, C4/C5 as well for Central European, CE/CF for
// Greek); each pair's lookup writes the first folded byte to the lead's
// lane and the second to the continuation's, and reads the lane kind.
// Lanes the fold drops (the continuation of a fold to one byte, both bytes
// of an ignorable) leave the keep mask; a compress packs the kept lanes and
// one store writes them. A map note follows each scalar whose fold is not
// two bytes long: its original end is the block's start plus the lane
// after it, its folded end the count of kept lanes up to there (popcount).
// Three-byte scalars are kept as they are when their row of 64 scalars
// (lead and first continuation byte) folds to itself throughout: CJK,
// most of Thai and Devanagari, punctuation rows without ignorables; a bit
// per row, looked up with vpermi2b on the row bitmap and a vpshufb for the
// bit.
//
// Four-byte scalars (emoji, in chat lines of every script) are few in a
// block: each is looked up on its own (fssimd_four_byte_kind: emoji that
// fold to themselves, or ignorable skin tone modifiers, four lanes dropped
// and a note after them), so that an emoji does not end the kernel's run
// and send it through the Swift loop.
//
// The block stops (`valid` ends) before the first byte this cannot fold:
// any other non-ASCII byte (ill-formed input, C0 and C1), a continuation
// byte no lead claims, a lead without all its continuations or running
// past the block, a control byte when the table stops at controls, a
// two-byte scalar of kind FSSIMD_LANE_SLOW, a three-byte scalar of a row
// that does not fold to itself and a four-byte scalar of another kind.
// Bytes before it are folded and stored; the scalar part then folds from
// there until ASCII or a scalar this path folds resumes (or returns to the
// caller). The stop
// never splits a scalar: every lane a lead claims is a continuation byte,
// which is never the first bad lane (a bad lead is earlier).
//
// The next block's position depends only on a branch, not on the lookups,
// when the whole block folds (the common case), so blocks overlap in the
// CPU.
//
// Invariants: at the loop's top i + 65 <= n, so the block and the vector
// of next bytes (loaded at i + 1) lie inside the input; a block adds at
// most 32 notes (one per two-byte scalar), and the loop runs only while
// FSSIMD_FOLD_BLOCK_NOTES slots are free; o <= i × E, so the 64-byte store
// at dst + o ends before count × E. The output equals the narrower
// kernels' byte for byte and note for note (FoldFastPathTests).
//
// Compare simdutf's UTF-8 transcoders (Lemire and Keiser, "Validating
// UTF-8 in less than one instruction per byte", Software: Practice and
// Experience 51(5), 2021), which also classify a block's bytes as leads
// and continuations in masks and compress lanes away.
//
// Which way a block goes (tuned with `foldbench --probe fold-kernel` and
// Benchmarks/fold-compare.sh on the large corpora; HISTORY.md has the
// figures):
// - A block whose only stop is one two-byte scalar with a plain fold (a
//   single accent in a block, the common block of Spanish, German or
//   French prose) is stored whole, the scalar's folded byte(s) written
//   over it and, for a fold to one byte, the lanes after it stored again
//   one byte earlier with a masked store; one note. (A compress and the
//   lookups cost more than that for one scalar.)
// - A block whose stops are all non-ASCII bytes, each a two-byte scalar
//   whose fold is plain (two bytes, or one byte with a note after it: é →
//   e, Greek and Cyrillic case pairs, identity), is a two-byte block, the
//   most common block of Latin, Greek and Cyrillic text: its pairs' lookups
//   as above, no lead, continuation or row analysis beyond the two masks,
//   a compress, and its notes written eight at a time
//   (fssimd_notes_after_drops). A lead in lane 63 is left to the next
//   block, which starts there. A block of two-byte scalars some of which
//   do not fold plainly (ß, atomic; a soft hyphen; a starter) folds its
//   lanes before the first of those this way and hands that one to the
//   scalar part, which returns at ASCII or at the next two-byte lead.
// - Any other block whose stops are all non-ASCII goes the general way
//   below (three-byte rows, four-byte scalars, slow lanes, contraction
//   starters), which stops at the first byte it cannot fold and hands it to
//   the scalar part.
// - A block that also stops at ASCII bytes (controls, ASCII contraction
//   starters) with at most FSSIMD_SPARSE stops starts a sparse stretch: the
//   AVX2 kernel's loop (fssimd_fold_run_sparse_avx2) folds from there until
//   a 32-byte vector with more than FSSIMD_SPARSE stops, or until it stops
//   where the narrow way would (then taken here, which stops or hands back
//   as the scalar part says); its output is the AVX2 kernel's, which every
//   level shares. (For such tables, every block's ASCII starters would
//   otherwise cost a block's lookups.)
// A folded block that stopped before FSSIMD_EAGER bytes at a stop that
// repeats (fssimd_stop_repeats: Hangul) sends the next FSSIMD_CALM blocks
// the narrow way (a vector up to the first stop, then the scalar part to
// the next ASCII byte); any other hands back to the blocks at the first
// scalar they fold.
#define FSSIMD_EAGER 32
#define FSSIMD_CALM 32

// The lanes of `v` whose byte lies in low ..< low + count (UTF-8 leads and
// continuations by kind).
FSSIMD_AVX512 static inline uint64_t fssimd_bytes_in(__m512i v, uint8_t low, uint8_t count) {
  return _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8((char)low)),
                                _mm512_set1_epi8((char)count));
}
// The lanes of `v` whose byte is in the nibble set `table` (16 bytes in
// each 128-bit lane: bit b >> 4 of entry b & 15 for byte b); bytes of 0x80
// and above are in none.
FSSIMD_AVX512 static inline uint64_t fssimd_nibble_set_avx512(__m512i v, __m512i table) {
  const __m512i low_nibbles = _mm512_and_si512(v, _mm512_set1_epi8(0x0F));
  const __m512i high_nibbles = _mm512_and_si512(_mm512_srli_epi16(v, 4), _mm512_set1_epi8(0x0F));
  const __m512i high_bits = _mm512_broadcast_i32x4(
      _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0));
  const __m512i hits = _mm512_and_si512(_mm512_shuffle_epi8(table, low_nibbles),
                                        _mm512_shuffle_epi8(high_bits, high_nibbles));
  return _mm512_test_epi8_mask(hits, hits);
}

// The notes of a block whose dropped lanes are exactly its noted lanes
// (the continuation lanes of two-byte scalars folded to one byte), at
// input position i and output position o: after the j-th noted lane q
// (counting from 0), folded o + q − j (the q + 1 lanes up to q less the
// j + 1 dropped among them), original i + q + 1, not atomic. Written
// eight at a time as fssimd_fold_note pairs: the 64 lane numbers
// compressed to the noted ones, widened to 64 bits, the two positions
// added and interleaved. Returns the number of notes (popcount of
// `noted`).
//
// Caller obligations: `noted` has at most 32 lanes; 32 slots are writable
// at `notes` (slots past the returned count may be overwritten).
FSSIMD_AVX512 static inline int64_t fssimd_notes_after_drops(fssimd_fold_note *notes,
                                                             uint64_t noted, int64_t i,
                                                             int64_t o, __m512i iota) {
  const __m512i iota64 = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  const __m512i interleave_low = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
  const __m512i interleave_high = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
  __m512i lanes = _mm512_maskz_compress_epi8(noted, iota);
  // Slot j of a group of eight: folded o − j (plus q), original i + 1.
  __m512i folded = _mm512_sub_epi64(_mm512_set1_epi64(o), iota64);
  const __m512i original = _mm512_set1_epi64(i + 1);
  const int64_t count = (int64_t)_mm_popcnt_u64(noted);
  for (int64_t j = 0; j < count; j += 8) {
    const __m512i q = _mm512_cvtepu8_epi64(_mm512_castsi512_si128(lanes));
    const __m512i f = _mm512_add_epi64(folded, q);
    const __m512i g = _mm512_add_epi64(original, q);
    // SAFETY: j < count <= 32, so slots j ..< j + 8 lie in the 32 free.
    _mm512_storeu_si512((void *)(notes + j), _mm512_permutex2var_epi64(f, interleave_low, g));
    _mm512_storeu_si512((void *)(notes + j + 4),
                        _mm512_permutex2var_epi64(f, interleave_high, g));
    lanes = _mm512_alignr_epi64(_mm512_setzero_si512(), lanes, 1);
    folded = _mm512_sub_epi64(folded, _mm512_set1_epi64(8));
  }
  return count;
}

// Whether the block stop at x (at least four bytes readable) is one that
// the next blocks would meet again and again: a scalar of a three-byte row
// the blocks never fold (Hangul syllables, whose rows have no table), a
// four-byte scalar, ill-formed bytes, or an ASCII byte (a control, an
// ASCII contraction starter). A two-byte scalar, or a scalar of a row the
// blocks fold (identity, or with a table), that stopped a block is an
// exception of its row (an atomic expansion such as U+2026 "…" in the
// collation profile, a contraction starter): the blocks go on after it (32
// narrow blocks after each "…" would cost Arabic and Hebrew lines a tenth of
// their collation fold).
static inline int fssimd_stop_repeats(const uint8_t *lanes, const uint8_t *x) {
  const uint8_t b0 = x[0];
  if (b0 >= 0xC2 && b0 < 0xE0) return 0;
  if (b0 < 0xE0 || b0 >= 0xF0) return 1;
  return !fssimd_blocks_fold_row(lanes, b0, x[1]);
}

// `contractions`: the table has ASCII contraction starters (a constant in
// each instantiation, so that the other tables' loop tests nothing more).
FSSIMD_AVX512 __attribute__((always_inline)) static inline void fssimd_fold_run_avx512_with(
    fssimd_fold_state *s, const int contractions) {
  const fssimd_fold_state c = *s;
  const uint8_t *src = c.src;
  uint8_t *dst = c.dst;
  const int64_t n = c.count;
  const uint8_t *lanes = c.lanes;
  const int controls = c.stop_at_controls;
  const int64_t last_block_note = c.note_capacity - FSSIMD_FOLD_BLOCK_NOTES;
  fssimd_fold_note *notes = c.notes;
  int64_t i = s->i, o = s->o, k = s->note_count;
  const __m512i letter_a = _mm512_set1_epi8('A');
  const __m512i letters = _mm512_set1_epi8(26);
  const __m512i case_bit = _mm512_set1_epi8(0x20);
  const __m512i del = _mm512_set1_epi8(0x7F);
  const __m512i tab = _mm512_set1_epi8(0x09);
  const __m512i spaces = _mm512_set1_epi8(5);
  const __m512i one = _mm512_set1_epi8(1);
  const __m512i pair_bit = _mm512_set1_epi8(0x40);
  const __m512i note_bit = _mm512_set1_epi8(FSSIMD_LANE_NOTE);
  const __m512i drop_bit = _mm512_set1_epi8(FSSIMD_LANE_DROP);
  const __m512i drop_1_bit = _mm512_set1_epi8(FSSIMD_LANE_DROP << 1);
  const __m512i drop_2_bit = _mm512_set1_epi8(FSSIMD_LANE_DROP << 2);
  const __m512i slow_bit = _mm512_set1_epi8(FSSIMD_LANE_SLOW);
  const __m512i starter_bit = _mm512_set1_epi8(FSSIMD_LANE_STARTER);
  const __m512i continues_bit = _mm512_set1_epi8(FSSIMD_LANE_CONTINUES);
  // Lane k holds k.
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
      40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
      17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  // Whether an ASCII scalar may continue a contraction (a tailoring's "ch"):
  // then a starter before one is checked too.
  const int ascii_continues = (c.continuations[0] | c.continuations[1]) != 0;
  const __m512i low_nibble = _mm512_set1_epi8(0x0F);
  const __m512i row_high = _mm512_set1_epi8(0x38);
  const __m512i bit_index = _mm512_set1_epi8(7);
  const __m512i bits = _mm512_set1_epi64((int64_t)0x8040201008040201);
  const __m512i rows_lo = _mm512_loadu_si512((const void *)(lanes + 6144));
  const __m512i rows_hi = _mm512_loadu_si512((const void *)(lanes + 6144 + 64));
  // Lane k takes lane k - 1 (lane 0 takes lane 0: no lead before it).
  const __m512i previous_lane = _mm512_set_epi8(
      62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40,
      39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
      16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0);
  // ASCII contraction starters (fssimd_fold_state.ascii_contraction_nibbles).
  const uint8_t *nibbles = c.ascii_contraction_nibbles;
  const __m512i starter_nibbles =
      contractions
          ? _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)nibbles))
          : _mm512_setzero_si512();
  const __m512i continuation_nibbles =
      contractions
          ? _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)(nibbles + 16)))
          : _mm512_setzero_si512();
  // Lane kinds a two-byte block does not fold: slow, starters, ignorables
  // (two lanes dropped).
  const __m512i unplain_bits =
      _mm512_set1_epi8(FSSIMD_LANE_SLOW | FSSIMD_LANE_STARTER | (FSSIMD_LANE_DROP << 1));
  int done = 0;
  int calm = 0;
  while (i + 66 <= n) {
    if (k > last_block_note) {
      done = 1;
      break;
    }
    const __m512i v = _mm512_loadu_si512((const void *)(src + i));
    const __mmask64 upper = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, letter_a), letters);
    __m512i w = _mm512_mask_add_epi8(v, upper, v, case_bit);
    uint64_t stop = _mm512_movepi8_mask(v);
    if (controls) {
      // TAB…CR fold to themselves (fssimd_fold_state): they do not stop.
      stop |= (_mm512_cmplt_epu8_mask(v, case_bit) &
               ~_mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, tab), spaces)) |
              _mm512_cmpeq_epi8_mask(v, del);
    }
    if (contractions) {
      // A starter that a continuation or a non-ASCII byte follows (the
      // byte after lane 63 is inside the input: i + 66 <= n).
      const uint64_t starters = fssimd_nibble_set_avx512(v, starter_nibbles);
      if (starters != 0) {
        const __m512i after = _mm512_loadu_si512((const void *)(src + i + 1));
        stop |= starters & (fssimd_nibble_set_avx512(after, continuation_nibbles) |
                            _mm512_movepi8_mask(after));
      }
    }
    if (stop == 0) {
      _mm512_storeu_si512((void *)(dst + o), w);
      i += 64;
      o += 64;
      continue;
    }
    const int ascii_stops = stop != (uint64_t)_mm512_movepi8_mask(v);
    const unsigned first = (unsigned)_tzcnt_u64(stop);
    if (stop == (uint64_t)3 << first && first < 63 && !ascii_stops) {
      // One non-ASCII scalar of two bytes (sparse accents): folded from
      // the packed table when plain, the block stored around it.
      const uint8_t b0 = src[i + first], b1 = src[i + first + 1];
      const uint64_t packed =
          (uint8_t)(b0 - 0xC2) < 0xE0 - 0xC2 && (b1 & 0xC0) == 0x80
              ? c.two_byte[(b0 & 0x1F) << 6 | (b1 & 0x3F)] & (FSSIMD_TWO_BYTE_PLAIN_MASK | 0xFFFF)
              : 0;
      if ((packed >> 32) == 1) {
        // To one byte (é → e), a note after it: the lanes after the
        // scalar are stored one byte earlier (a masked store whose lanes
        // start after the scalar, at dst + o − 1 + lane).
        _mm512_storeu_si512((void *)(dst + o), w);
        dst[o + first] = (uint8_t)packed;
        // SAFETY: the masked-off lanes (0 ..< first + 2) are never
        // accessed, so lane 0's address may lie before dst when o = 0; the
        // lanes stored end at dst + o + 62. (Two shifts: first + 2 may be
        // 64, which one shift cannot take.)
        _mm512_mask_storeu_epi8((void *)((uintptr_t)(dst + o) - 1),
                                ~(uint64_t)0 << (first + 1) << 1, w);
        notes[k].folded_and_flag = o + first + 1;
        notes[k].original = i + first + 2;
        k++;
        i += 64;
        o += 63;
        continue;
      }
      if ((packed >> 32) == 2) {
        // Two bytes to two (identity, case pairs): no note.
        _mm512_storeu_si512((void *)(dst + o), w);
        dst[o + first] = (uint8_t)packed;
        dst[o + first + 1] = (uint8_t)(packed >> 8);
        i += 64;
        o += 64;
        continue;
      }
    }
    if (!ascii_stops) {
      // A two-byte block (above)? The span: every lane, or all but lane 63
      // when a lead is there (its scalar is the next block's).
      const uint64_t lead2 = fssimd_bytes_in(v, 0xC2, 0xE0 - 0xC2);
      const uint64_t cont = fssimd_bytes_in(v, 0x80, 0x40);
      const uint64_t span = src[i + 63] >= 0xC0 ? ~((uint64_t)1 << 63) : ~(uint64_t)0;
      const uint64_t leads = lead2 & span;
      if ((leads | leads << 1) == (stop & span) && (cont & span) == leads << 1) {
        // Every non-ASCII lane of the span is a two-byte lead or its
        // continuation, within the span. The lookups as in the general way
        // (below), with the kinds tested only for what this way folds.
        const __m512i next = _mm512_loadu_si512((const void *)(src + i + 1));
        const __m512i prev = _mm512_permutexvar_epi8(previous_lane, v);
        const __m512i lead_index =
            _mm512_or_si512(next, _mm512_and_si512(_mm512_slli_epi16(v, 6), pair_bit));
        const __m512i cont_index =
            _mm512_or_si512(v, _mm512_and_si512(_mm512_slli_epi16(prev, 6), pair_bit));
        const __m512i paired = _mm512_or_si512(v, one);
        __m512i folded = w;
        uint64_t rest = leads, noted = 0, unplain = 0;
        do {
          const uint8_t l = src[i + (int64_t)_tzcnt_u64(rest)];
          const uint64_t mine =
              _mm512_cmpeq_epi8_mask(paired, _mm512_set1_epi8((char)(l | 1))) & leads;
          const uint64_t theirs = mine << 1;
          const uint8_t *table = lanes + ((l & 0x1E) << 6);
          folded = _mm512_mask_mov_epi8(folded, mine, FSSIMD_LOOKUP128(table, lead_index));
          folded =
              _mm512_mask_mov_epi8(folded, theirs, FSSIMD_LOOKUP128(table + 2048, cont_index));
          const __m512i kind = FSSIMD_LOOKUP128(table + 4096, cont_index);
          unplain |= _mm512_mask_test_epi8_mask(theirs, kind, unplain_bits);
          noted |= _mm512_mask_test_epi8_mask(theirs, kind, note_bit);
          rest &= ~mine;
        } while (rest != 0);
        // The lanes before the first scalar whose fold is not plain (its
        // lead: the lane before its continuation), all of the span when
        // none is. A plain kind with a note is a fold to one byte: its
        // continuation lane is dropped (FSSIMD_LANE_NOTE |
        // FSSIMD_LANE_DROP), so the dropped lanes are the noted ones.
        const uint64_t done_lanes =
            unplain == 0 ? span : span & (((unplain & -unplain) >> 1) - 1);
        const uint64_t keep = done_lanes & ~noted;
        noted &= done_lanes;
        _mm512_storeu_si512((void *)(dst + o), _mm512_maskz_compress_epi8(keep, folded));
        if (noted != 0) k += fssimd_notes_after_drops(notes + k, noted, i, o, iota);
        o += (int64_t)_mm_popcnt_u64(keep);
        if (unplain == 0) {
          i += span == ~(uint64_t)0 ? 64 : 63;
          continue;
        }
        // The scalar part folds the one that is not plain (ß, atomic; a
        // soft hyphen, ignorable; a contraction starter) and what follows
        // until ASCII or a two-byte lead.
        i += (int64_t)_mm_popcnt_u64(done_lanes);
        if (!fssimd_fold_scalars(c, &i, &o, &k, 1, contractions, 1)) {
          done = 1;
          break;
        }
        continue;
      }
    }
    // pair_starts: lanes where a contraction folded in the vector starts
    // an atomic expansion (a note before the lane).
    uint64_t valid, noted = 0, dropped = 0, pair_starts = 0;
    if (ascii_stops && calm == 0 && _mm_popcnt_u64(stop) <= FSSIMD_SPARSE) {
      // A sparse block: the AVX2 loop from here, until a dense vector (or
      // what the narrow way below would stop at).
      fssimd_fold_state narrow = c;
      narrow.i = i;
      narrow.o = o;
      narrow.note_count = k;
      fssimd_fold_run_sparse_avx2(&narrow);
      if (narrow.i != i) {
        i = narrow.i;
        o = narrow.o;
        k = narrow.note_count;
        continue;
      }
    }
    if (calm > 0 || (ascii_stops && _mm_popcnt_u64(stop) <= FSSIMD_SPARSE)) {
      calm -= calm > 0;
      // Few bytes to fold: the narrower kernels' way, the ASCII prefix
      // stored with the vector and the scalar part from the first stop.
      _mm512_storeu_si512((void *)(dst + o), w);
      const int64_t prefix = (int64_t)_tzcnt_u64(stop);
      i += prefix;
      o += prefix;
      if (!fssimd_fold_scalars(c, &i, &o, &k, 0, contractions, 1)) {
        done = 1;
        break;
      }
      continue;
    }
    const uint64_t lead2 = fssimd_bytes_in(v, 0xC2, 0xE0 - 0xC2);
    const uint64_t lead3 = fssimd_bytes_in(v, 0xE0, 0x10);
    const uint64_t lead4 = fssimd_bytes_in(v, 0xF0, 5);
    const uint64_t cont = fssimd_bytes_in(v, 0x80, 0x40);
    const uint64_t claimed =
        lead2 << 1 | lead3 << 1 | lead3 << 2 | lead4 << 1 | lead4 << 2 | lead4 << 3;
    const uint64_t mismatch = cont ^ claimed;
    const uint64_t bad = (stop & ~(lead2 | lead3 | lead4 | cont)) | (cont & ~claimed) |
                         (lead2 & (mismatch >> 1 | (uint64_t)1 << 63)) |
                         (lead3 & (mismatch >> 1 | mismatch >> 2 | (uint64_t)3 << 62)) |
                         (lead4 & (mismatch >> 1 | mismatch >> 2 | mismatch >> 3 |
                                   (uint64_t)7 << 61));
    // The lanes below the first bad one (all when none is).
    valid = (bad - 1) & ~bad;
    const uint64_t two = lead2 & valid, three = lead3 & valid, four = lead4 & valid;
    const __m512i next = _mm512_loadu_si512((const void *)(src + i + 1));
    // Over the lanes below `valid`'s end: the scalars' last lanes with a
    // note after them, the lanes to drop, the leads to stop at.
    uint64_t slow = 0, starters = 0, continues = 0;
    if (two != 0) {
      // vpermi2b indexes by the low seven bits: the continuation's low six
      // (its bit 6 is clear) and, as bit 6, the lead's low bit.
      const __m512i prev = _mm512_permutexvar_epi8(previous_lane, v);
      const __m512i lead_index =
          _mm512_or_si512(next, _mm512_and_si512(_mm512_slli_epi16(v, 6), pair_bit));
      const __m512i cont_index =
          _mm512_or_si512(v, _mm512_and_si512(_mm512_slli_epi16(prev, 6), pair_bit));
      const __m512i paired = _mm512_or_si512(v, one);
      uint64_t rest = two;
      do {
        const uint8_t l = src[i + (int64_t)_tzcnt_u64(rest)];
        const uint64_t mine =
            _mm512_cmpeq_epi8_mask(paired, _mm512_set1_epi8((char)(l | 1))) & two;
        const uint64_t theirs = mine << 1;
        const uint8_t *table = lanes + ((l & 0x1E) << 6);
        w = _mm512_mask_mov_epi8(w, mine, FSSIMD_LOOKUP128(table, lead_index));
        w = _mm512_mask_mov_epi8(w, theirs, FSSIMD_LOOKUP128(table + 2048, cont_index));
        const __m512i kind = FSSIMD_LOOKUP128(table + 4096, cont_index);
        noted |= _mm512_mask_test_epi8_mask(theirs, kind, note_bit);
        dropped |= _mm512_mask_test_epi8_mask(theirs, kind, drop_bit) |
                   _mm512_mask_test_epi8_mask(theirs, kind, drop_1_bit) >> 1;
        slow |= _mm512_mask_test_epi8_mask(theirs, kind, slow_bit) >> 1;
        starters |= _mm512_mask_test_epi8_mask(theirs, kind, starter_bit) >> 1;
        continues |= _mm512_mask_test_epi8_mask(theirs, kind, continues_bit) >> 1;
        rest &= ~mine;
      } while (rest != 0);
    }
    if (three != 0) {
      // Row r = (b0 & 0x0F) << 6 | (b1 & 0x3F): byte r >> 3 of the bitmap,
      // bit r & 7 = b1 & 7. The 16-bit shifts move no bit across a byte.
      const __m512i byte_index =
          _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(v, low_nibble), 3),
                          _mm512_srli_epi16(_mm512_and_si512(next, row_high), 3));
      const __m512i row_bits = _mm512_permutex2var_epi8(rows_lo, byte_index, rows_hi);
      const __m512i bit = _mm512_shuffle_epi8(bits, _mm512_and_si512(next, bit_index));
      uint64_t rest = three & ~_mm512_test_epi8_mask(row_bits, bit);
      if (rest != 0) {
        // The scalars of rows with a table: one row per step, its 64
        // folds indexed by the third byte, which lies in lane p + 2 of v,
        // p + 1 of next and p of after_next.
        const __m512i after_next = _mm512_loadu_si512((const void *)(src + i + 2));
        do {
          const int64_t p = i + (int64_t)_tzcnt_u64(rest);
          const uint8_t b0 = src[p], b1 = src[p + 1];
          const uint64_t mine = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)b0)) &
                                _mm512_cmpeq_epi8_mask(next, _mm512_set1_epi8((char)b1)) & rest;
          const uint32_t r = (uint32_t)(b0 & 0x0F) << 6 | (b1 & 0x3F);
          uint16_t number;
          memcpy(&number, lanes + 6272 + 2 * r, 2);
          if (number == 0) {
            slow |= mine;
          } else {
            const uint8_t *table = lanes + FSSIMD_FOLD_LANES_FIXED + 256 * (int64_t)(number - 1);
            const uint64_t second = mine << 1, third = mine << 2;
            w = _mm512_mask_permutexvar_epi8(w, mine, after_next,
                                             _mm512_loadu_si512((const void *)table));
            w = _mm512_mask_permutexvar_epi8(w, second, next,
                                             _mm512_loadu_si512((const void *)(table + 64)));
            w = _mm512_mask_permutexvar_epi8(w, third, v,
                                             _mm512_loadu_si512((const void *)(table + 128)));
            const __m512i kind = _mm512_maskz_permutexvar_epi8(
                third, v, _mm512_loadu_si512((const void *)(table + 192)));
            noted |= _mm512_mask_test_epi8_mask(third, kind, note_bit);
            dropped |= _mm512_mask_test_epi8_mask(third, kind, drop_bit) |
                       _mm512_mask_test_epi8_mask(third, kind, drop_1_bit) >> 1 |
                       _mm512_mask_test_epi8_mask(third, kind, drop_2_bit) >> 2;
            slow |= _mm512_mask_test_epi8_mask(third, kind, slow_bit) >> 2;
            starters |= _mm512_mask_test_epi8_mask(third, kind, starter_bit) >> 2;
          }
          rest &= ~mine;
        } while (rest != 0);
      }
    }
    // Four-byte scalars (emoji), one by one: to themselves, or ignorable.
    for (uint64_t rest = four; rest != 0; rest &= rest - 1) {
      const unsigned p = (unsigned)_tzcnt_u64(rest);
      const int kind = fssimd_four_byte_kind(lanes, src + i + p);
      if (kind == 1) {
        dropped |= (uint64_t)0xF << p;
        noted |= (uint64_t)8 << p;
      } else if (kind == 2) {
        slow |= (uint64_t)1 << p;
      }
    }
    // A contraction starter folds alone (as the lanes did) unless the
    // scalar after it may continue a contraction. The lanes decide for a
    // scalar after it in the block that is two-byte (its kind's continues
    // bit) or ASCII (none continues, unless the table says some may); the
    // rest (three- and four-byte, past the block or past `valid`) are
    // checked one by one. A contraction of the starter and that scalar
    // whose fold is as long as the two (a Thai or Lao prevowel and its
    // consonant: "เก" folds to "กเ") is written into their lanes, with an
    // atomic note before it and one after it as the scalar part would
    // write; otherwise the scalar part takes over before the starter.
    const uint64_t before_slow = slow != 0 ? (slow - 1) & ~slow : ~(uint64_t)0;
    const uint64_t checked = starters & valid & before_slow;
    uint64_t unsure = ~valid | three | four | continues;
    if (ascii_continues) unsure |= ~(lead2 | lead3 | cont);
    const uint64_t starters2 = checked & ~three, starters3 = checked & three;
    uint64_t m = (starters2 & (unsure >> 2 | (uint64_t)3 << 62)) |
                 (starters3 & (unsure >> 3 | (uint64_t)7 << 61));
    while (m != 0) {
      const unsigned p = (unsigned)_tzcnt_u64(m);
      const uint64_t lane = (uint64_t)1 << p;
      const int64_t width = (three & lane) ? 3 : 2;
      const int64_t j = i + p + width;
      int64_t second_width = 0;
      const uint32_t second =
          j + 3 > n ? UINT32_MAX : fssimd_continuation_at(src, c.continuations, j, &second_width);
      if (second == 0) {
        m &= m - 1;  // folds alone, as the lanes did
        continue;
      }
      if (second == UINT32_MAX || c.pair_keys == NULL) {
        slow |= lane;  // the scalar part decides
        break;
      }
      const uint8_t *x = src + i + p;
      const uint32_t first =
          width == 2 ? (uint32_t)(x[0] & 0x1F) << 6 | (x[1] & 0x3F)
                     : (uint32_t)(x[0] & 0x0F) << 12 | (uint32_t)(x[1] & 0x3F) << 6 | (x[2] & 0x3F);
      const int64_t slot = fssimd_pair_slot(&c, first, second);
      if (slot < 0) {
        m &= m - 1;  // no contraction begins with the two: it folds alone
        continue;
      }
      const uint32_t fold = c.pair_folds[slot];
      const uint64_t span = p + width + second_width <= 64
                                ? _bzhi_u64(~(uint64_t)0, (unsigned)(p + width + second_width)) &
                                      ~(lane - 1)
                                : 0;
      // (At least four lanes: its two notes then stay within a note per
      // two lanes, as FSSIMD_FOLD_BLOCK_NOTES counts.)
      if ((fold & 0x80000000u) || (int64_t)((fold >> 1) & 0x7F) != width + second_width ||
          width + second_width < 4 || span == 0 || (span & ~(valid & before_slow)) != 0 ||
          (span & (noted | dropped)) != 0) {
        slow |= lane;  // the scalar part folds it
        break;
      }
      // The pair's folded bytes (as many as its two scalars') into its
      // lanes, from a word: lane p + t takes byte t (eight bytes are
      // readable there; the span's mask keeps the fold's own).
      uint64_t word;
      memcpy(&word, c.pair_bytes + ((fold >> 8) & 0x7FFFFF), 8);
      w = _mm512_mask_permutexvar_epi8(w, span, _mm512_sub_epi8(iota, _mm512_set1_epi8((char)p)),
                                       _mm512_set1_epi64((int64_t)word));
      if (fold & 1) {
        pair_starts |= lane;
        noted |= (uint64_t)1 << (p + width + second_width - 1);
      }
      m &= ~span;
    }
    if (slow != 0) {
      valid &= (slow - 1) & ~slow;
      noted &= valid;
      dropped &= valid;
      pair_starts &= valid;
    }
    const uint64_t keep = valid & ~dropped;
    _mm512_storeu_si512((void *)(dst + o), _mm512_maskz_compress_epi8(keep, w));
    // Notes in order: after lane q (noted), then an atomic one before lane
    // q + 1 (pair_starts) at the same place.
    if (pair_starts & 1) {
      notes[k].folded_and_flag = o | FSSIMD_FOLD_NOTE_ATOMIC;
      notes[k].original = i;
      k++;
    }
    for (uint64_t m = noted | pair_starts >> 1; m != 0; m &= m - 1) {
      const unsigned q = (unsigned)_tzcnt_u64(m);
      const int64_t at = o + (int64_t)_mm_popcnt_u64(_bzhi_u64(keep, q + 1));
      if (noted >> q & 1) {
        notes[k].folded_and_flag = at;
        notes[k].original = i + (int64_t)q + 1;
        k++;
      }
      if (pair_starts >> q >> 1 & 1) {
        notes[k].folded_and_flag = at | FSSIMD_FOLD_NOTE_ATOMIC;
        notes[k].original = i + (int64_t)q + 1;
        k++;
      }
    }
    o += (int64_t)_mm_popcnt_u64(keep);
    if (valid == ~(uint64_t)0) {
      i += 64;
      continue;
    }
    const int64_t folded = (int64_t)_tzcnt_u64(~valid);
    i += folded;
    const int early = folded < FSSIMD_EAGER && fssimd_stop_repeats(lanes, src + i);
    if (early) calm = FSSIMD_CALM;
    if (!fssimd_fold_scalars(c, &i, &o, &k, !early, contractions, 1)) {
      done = 1;
      break;
    }
  }
  s->i = i;
  s->o = o;
  s->note_count = k;
  // Fewer than 66 bytes left: the 32-byte kernel takes what it can.
  if (!done) fssimd_fold_run_avx2(s);
}

FSSIMD_AVX512 FSSIMD_HIDDEN void fssimd_fold_run_avx512(fssimd_fold_state *s) {
  if (s->ascii_contraction_nibbles) {
    fssimd_fold_run_avx512_with(s, 1);
  } else {
    fssimd_fold_run_avx512_with(s, 0);
  }
}
#undef FSSIMD_LOOKUP128
#undef FSSIMD_AVX512
#endif
