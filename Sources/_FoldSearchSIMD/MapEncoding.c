// MapEncoding.c — the fold's map notes, delta-coded (fssimd_map_encode_notes).
//
// Idea: FoldSearch's `OffsetMap` keeps its entries delta-coded, one byte for
// most (see fssimd_map_encode_entry). The fold records a note per change of
// shift, and almost every note becomes an entry, so this loop runs about
// once per accented letter or Hangul syllable. Its state (two entries'
// positions, shifts and flags, the output, the bound) must stay in
// registers: written in Swift the loop spilled, and C lets the count of
// stores be derived at the end (a note consumed stores the pending entry
// unless dropped). callgrind, Latin text: 56 → 45 instructions a note.
//
// Invariants: the entry encoded is always the pending one, relative to the
// last stored one, so each store writes the difference of two registers;
// the rules are OffsetMap.Builder.append's for notes at increasing folded
// positions.
#include "FoldSearchSIMD.h"

int64_t fssimd_map_encode_notes(const fssimd_fold_note *notes, int64_t count,
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
  // Every note consumed stores the pending entry unless it is dropped, so
  // the stores are counted once at the end (fewer live registers).
  int64_t dropped = 0;
  for (; note < end; note++) {
    const int64_t raw = note->folded_and_flag;
    const int64_t folded = raw & mask;
    if (folded == newest_folded) break;  // the replacing rule: the caller's
    const int64_t shift = note->original - folded;
    const int64_t flag = raw ^ folded;
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
  if (consumed > dropped) {
    builder->newest_raw = newest_folded | newest_flag;
    builder->newest_shift = newest_shift;
    builder->last_raw = last_folded | last_flag;
    builder->last_shift = last_shift;
    builder->out = out;
    builder->stored += consumed - dropped;
  }
  return consumed;
}
