import OutputFormats

extension GatewayStatusReport {
    /// One Bluetooth adapter the gateway uses: its connection slots and what it placed.
    package struct AdapterStatus: Codable, Sendable, Equatable {
        /// `hci0`.
        package var name: String
        /// The controller's address, while the adapter is present.
        package var address: String?
        /// Whether it is present and powered.
        package var powered: Bool
        /// The connections it may hold (`max_connections`, or fewer once it refused one).
        package var slots: Int
        /// Straps placed on it (connecting or connected), by address.
        package var straps: [String]
        /// Connects that succeeded on it since the daemon started.
        package var connects: Int
        /// Connects that failed on it (for the strap's reasons, not for want of a slot).
        package var failures: Int
        /// Connects it refused for want of a slot.
        package var slotRefusals: Int

        /// Slots taken.
        package var slotsUsed: Int { straps.count }
        /// Slots left.
        package var slotsFree: Int { max(0, slots - straps.count) }

        /// Every field given: the memberwise initializer, which Swift would make only `internal`.
        package init(
            name: String, address: String?, powered: Bool, slots: Int, straps: [String], connects: Int, failures: Int, slotRefusals: Int
        ) {
            self.name = name
            self.address = address
            self.powered = powered
            self.slots = slots
            self.straps = straps
            self.connects = connects
            self.failures = failures
            self.slotRefusals = slotRefusals
        }

        /// Its JSON, keys in `JSONEncoder`'s sorted order.
        func write(to json: inout JSONWriter) {
            json.beginObject()
            if let address {
                json.key("address")
                json.string(address)
            }
            json.key("connects")
            json.integer(connects)
            json.key("failures")
            json.integer(failures)
            json.key("name")
            json.string(name)
            json.key("powered")
            json.boolean(powered)
            json.key("slotRefusals")
            json.integer(slotRefusals)
            json.key("slots")
            json.integer(slots)
            json.key("straps")
            json.beginArray()
            for strap in straps { json.string(strap) }
            json.endArray()
            json.endObject()
        }
    }
}
