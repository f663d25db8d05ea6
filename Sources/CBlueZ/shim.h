/*
 * The C surface of libdbus-1: the C layer of the BlueZ path (CBlueZ → DBus → BlueZ). Only the
 * `DBus` module imports it; `BlueZ` (the org.bluez model) reaches libdbus through `DBus`. The
 * name CBlueZ is fixed by the design, though what it wraps is the D-Bus library.
 *
 * No logic lives here: only what Swift cannot express directly. libdbus's type codes are
 * macros of the form ((int) 's'), which Swift does not import, so they are restated as enum
 * constants. libbluetooth is deliberately not included: it is GPL-2+, and nothing on the
 * D-Bus path needs it.
 */
#ifndef CBLUEZ_SHIM_H
#define CBLUEZ_SHIM_H

#include <dbus/dbus.h>

enum {
    CBLUEZ_TYPE_INVALID = DBUS_TYPE_INVALID,
    CBLUEZ_TYPE_BYTE = DBUS_TYPE_BYTE,
    CBLUEZ_TYPE_BOOLEAN = DBUS_TYPE_BOOLEAN,
    CBLUEZ_TYPE_INT16 = DBUS_TYPE_INT16,
    CBLUEZ_TYPE_UINT16 = DBUS_TYPE_UINT16,
    CBLUEZ_TYPE_INT32 = DBUS_TYPE_INT32,
    CBLUEZ_TYPE_UINT32 = DBUS_TYPE_UINT32,
    CBLUEZ_TYPE_INT64 = DBUS_TYPE_INT64,
    CBLUEZ_TYPE_UINT64 = DBUS_TYPE_UINT64,
    CBLUEZ_TYPE_DOUBLE = DBUS_TYPE_DOUBLE,
    CBLUEZ_TYPE_STRING = DBUS_TYPE_STRING,
    CBLUEZ_TYPE_OBJECT_PATH = DBUS_TYPE_OBJECT_PATH,
    CBLUEZ_TYPE_SIGNATURE = DBUS_TYPE_SIGNATURE,
    CBLUEZ_TYPE_UNIX_FD = DBUS_TYPE_UNIX_FD,
    CBLUEZ_TYPE_ARRAY = DBUS_TYPE_ARRAY,
    CBLUEZ_TYPE_VARIANT = DBUS_TYPE_VARIANT,
    CBLUEZ_TYPE_STRUCT = DBUS_TYPE_STRUCT,
    CBLUEZ_TYPE_DICT_ENTRY = DBUS_TYPE_DICT_ENTRY,
};

#endif
