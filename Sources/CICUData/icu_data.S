// ICU's data, trimmed to what HotTask reads (time zones, the Gregorian calendar, root and English
// formats), in place of the 34 MB that Foundation links from lib_FoundationICU.a. Defining the
// same symbol here, in an object the linker sees before that archive, keeps the archive's copy out.
//
// `make build` writes the header and the data (Packaging/trim-icu-data.py) into .build/icu-data
// before the static release build. Without them (a plain `swift build`) this file is empty and the
// binary carries ICU's full data, as before. Debug builds link Foundation as shared libraries,
// whose ICU keeps its own data: the copy would only weigh there.
#if __has_include("../../.build/icu-data/icu_data.h") && !defined(DEBUG)
#include "../../.build/icu-data/icu_data.h"
    .section .rodata.hottask_icu_data, "a", @progbits
    .globl HOTTASK_ICU_SYMBOL
    .type HOTTASK_ICU_SYMBOL, @object
    .balign 16
HOTTASK_ICU_SYMBOL:
    .incbin HOTTASK_ICU_DATA
    .size HOTTASK_ICU_SYMBOL, . - HOTTASK_ICU_SYMBOL
#endif
    .section .note.GNU-stack, "", @progbits
