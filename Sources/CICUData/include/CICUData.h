// Nothing to call: the target only defines ICU's data symbol (see icu_data.S).
