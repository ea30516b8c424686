// FoldSearchDecoder.c — decoding UTF-16 and legacy encodings to UTF-8 with
// ICU's converters, keeping for every UTF-8 byte the offset of its
// character in the input (foldgrep reports offsets in the file's own bytes).
//
// The idea: `ucnv_toUnicode` with its `offsets` argument yields UTF-16 code
// units with their source offsets; each code point is then written as UTF-8
// (`U8_APPEND_UNSAFE`) and its source offset repeated for each byte.
// Invariants: the converter keeps a sequence cut at the end of one call's
// input (`flush` false) and completes it in the next; ICU reports such a
// character's offset as -1, which is replaced by the (negative) offset of
// its first byte, known from the bytes the converter held
// (`ucnv_toUCountPending`) before the call.
// Reference: ICU4C API, ucnv.h (ucnv_toUnicode, ucnv_toUCountPending).

#include "FoldSearchShim.h"

#include <stdlib.h>
#include <unicode/ucnv.h>
#include <unicode/ucnv_err.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

struct fsicu_decoder {
  UConverter *converter;
  UChar *units;
  int32_t *unitOffsets;
  int32_t capacity;  // of units and unitOffsets
};

fsicu_decoder *fsicu_decoder_open(const char *encoding) {
  UErrorCode status = U_ZERO_ERROR;
  UConverter *converter = ucnv_open(encoding, &status);
  if (U_FAILURE(status) || !converter) return NULL;
  // Ill-formed input becomes U+FFFD (the default substitutes U+001A for
  // some converters).
  ucnv_setToUCallBack(converter, UCNV_TO_U_CALLBACK_SUBSTITUTE, NULL, NULL, NULL, &status);
  fsicu_decoder *decoder = calloc(1, sizeof *decoder);
  if (!decoder || U_FAILURE(status)) {
    ucnv_close(converter);
    free(decoder);
    return NULL;
  }
  decoder->converter = converter;
  return decoder;
}

void fsicu_decoder_close(fsicu_decoder *decoder) {
  if (!decoder) return;
  ucnv_close(decoder->converter);
  free(decoder->units);
  free(decoder->unitOffsets);
  free(decoder);
}

int64_t fsicu_decoder_decode(fsicu_decoder *decoder, const uint8_t *source, int32_t length,
                             bool flush, uint8_t *out, int32_t capacity, int32_t *offsets) {
  if (length < 0 || length > (INT32_MAX - 16) / 2) return -1;
  // At most one code unit per input byte, plus what was pending (< 32 bytes)
  // and a substitution at the flush.
  int32_t needed = length + 64;
  if (decoder->capacity < needed) {
    UChar *units = realloc(decoder->units, sizeof(UChar) * (size_t)needed);
    if (!units) return -1;
    decoder->units = units;
    int32_t *unitOffsets = realloc(decoder->unitOffsets, sizeof(int32_t) * (size_t)needed);
    if (!unitOffsets) return -1;
    decoder->unitOffsets = unitOffsets;
    decoder->capacity = needed;
  }
  UErrorCode status = U_ZERO_ERROR;
  int32_t pending = ucnv_toUCountPending(decoder->converter, &status);
  if (U_FAILURE(status) || pending < 0) pending = 0;
  status = U_ZERO_ERROR;
  UChar *target = decoder->units;
  const char *input = (const char *)source;
  ucnv_toUnicode(decoder->converter, &target, decoder->units + decoder->capacity, &input,
                 input + length, decoder->unitOffsets, flush, &status);
  if (U_FAILURE(status)) return -1;
  int32_t count = (int32_t)(target - decoder->units);
  int32_t written = 0;
  int32_t i = 0;
  while (i < count) {
    int32_t start = i;
    UChar32 c;
    U16_NEXT(decoder->units, i, count, c);
    if (U_IS_SURROGATE(c)) c = 0xFFFD;  // an unpaired surrogate
    int32_t offset = decoder->unitOffsets[start];
    if (offset < 0) offset = -pending;
    if (written + U8_LENGTH(c) > capacity) return -1;
    int32_t before = written;
    U8_APPEND_UNSAFE(out, written, c);
    for (int32_t k = before; k < written; k++) offsets[k] = offset;
  }
  return written;
}
