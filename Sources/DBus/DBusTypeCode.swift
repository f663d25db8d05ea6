import CBlueZ

/// libdbus type codes as Swift constants (the C macros are not importable).
enum DBusTypeCode {
    static let invalid = Int32(CBLUEZ_TYPE_INVALID)
    static let byte = Int32(CBLUEZ_TYPE_BYTE)
    static let boolean = Int32(CBLUEZ_TYPE_BOOLEAN)
    static let int16 = Int32(CBLUEZ_TYPE_INT16)
    static let uint16 = Int32(CBLUEZ_TYPE_UINT16)
    static let int32 = Int32(CBLUEZ_TYPE_INT32)
    static let uint32 = Int32(CBLUEZ_TYPE_UINT32)
    static let int64 = Int32(CBLUEZ_TYPE_INT64)
    static let uint64 = Int32(CBLUEZ_TYPE_UINT64)
    static let double = Int32(CBLUEZ_TYPE_DOUBLE)
    static let string = Int32(CBLUEZ_TYPE_STRING)
    static let objectPath = Int32(CBLUEZ_TYPE_OBJECT_PATH)
    static let signature = Int32(CBLUEZ_TYPE_SIGNATURE)
    static let unixFD = Int32(CBLUEZ_TYPE_UNIX_FD)
    static let array = Int32(CBLUEZ_TYPE_ARRAY)
    static let variant = Int32(CBLUEZ_TYPE_VARIANT)
    static let structure = Int32(CBLUEZ_TYPE_STRUCT)
    static let dictEntry = Int32(CBLUEZ_TYPE_DICT_ENTRY)
}
