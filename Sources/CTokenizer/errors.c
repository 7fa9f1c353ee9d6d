/*
 * errors.c — static names for result codes and token kinds.
 */
#include "internal.h"

const char *ctk_errmsg(int code)
{
    switch (code) {
    case CTK_OK:
        return "success";
    case CTK_ERROR_NOSPACE:
        return "the token array or the text buffer is too small (stats holds the sizes needed)";
    case CTK_ERROR_TOOLARGE:
        return "the input (or its normalized text) is longer than 4 GiB - 1 bytes";
    case CTK_ERROR_INVALID:
        return "a required pointer was NULL";
    case CTK_ERROR_ICU:
        return "ICU failed to normalize the text (U_BUFFER_OVERFLOW_ERROR or a missing data file)";
    default:
        return "unknown error";
    }
}

const char *ctk_kind_name(int kind)
{
    switch (kind) {
    case CTK_WORD: return "word";
    case CTK_NUMBER: return "number";
    case CTK_URL: return "url";
    case CTK_USER: return "user";
    case CTK_HASHTAG: return "hashtag";
    case CTK_EMOJI: return "emoji";
    case CTK_EMOTICON: return "emoticon";
    case CTK_PUNCT: return "punct";
    case CTK_SYMBOL: return "symbol";
    default: return "unknown";
    }
}
