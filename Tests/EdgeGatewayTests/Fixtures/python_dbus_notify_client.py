#!/usr/bin/python3
"""A BlueZ client written with another D-Bus library (Debian's python3-dbus + GLib).

Connects the strap ADDRESS on the system bus (DBUS_SYSTEM_BUS_ADDRESS), waits for its
services, finds the Heart Rate Measurement characteristic by UUID, calls StartNotify and
prints COUNT notifications as hex, one per line. Exits 0 when it has them, 1 after 60 s.
Used to check that the simulator behaves like bluetoothd for clients other than ours.
"""
import sys

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

MEASUREMENT = "00002a37-0000-1000-8000-00805f9b34fb"
address, wanted = sys.argv[1], int(sys.argv[2])

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SystemBus()
manager = dbus.Interface(bus.get_object("org.bluez", "/"), "org.freedesktop.DBus.ObjectManager")
device_path = next(
    path for path, interfaces in manager.GetManagedObjects().items()
    if interfaces.get("org.bluez.Device1", {}).get("Address") == address)
dbus.Interface(bus.get_object("org.bluez", device_path), "org.bluez.Device1").Connect()

loop = GLib.MainLoop()
received = []
status = {"code": 1}


def on_properties_changed(interface, changed, invalidated):
    if interface == "org.bluez.GattCharacteristic1" and "Value" in changed:
        received.append(bytes(changed["Value"]).hex())
        print(received[-1], flush=True)
        if len(received) >= wanted:
            status["code"] = 0
            loop.quit()


def start_notify_when_resolved():
    properties = dbus.Interface(bus.get_object("org.bluez", device_path), "org.freedesktop.DBus.Properties")
    if not properties.Get("org.bluez.Device1", "ServicesResolved"):
        return True
    characteristic = next(
        path for path, interfaces in manager.GetManagedObjects().items()
        if path.startswith(device_path + "/")
        and interfaces.get("org.bluez.GattCharacteristic1", {}).get("UUID") == MEASUREMENT)
    bus.add_signal_receiver(
        on_properties_changed, signal_name="PropertiesChanged",
        dbus_interface="org.freedesktop.DBus.Properties", bus_name="org.bluez", path=characteristic)
    dbus.Interface(bus.get_object("org.bluez", characteristic), "org.bluez.GattCharacteristic1").StartNotify()
    return False


GLib.timeout_add(50, start_notify_when_resolved)
GLib.timeout_add_seconds(60, loop.quit)
loop.run()
sys.exit(status["code"])
