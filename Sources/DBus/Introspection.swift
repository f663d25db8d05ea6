/// Introspection XML for exported interfaces (the D-Bus introspection DTD).
enum Introspection {
    static func xml(for interface: DBusInterfaceDescription) -> String {
        var xml = " <interface name=\"\(interface.name)\">\n"
        for method in interface.methods {
            xml += "  <method name=\"\(method.name)\">"
            xml += method.inputs.map { "<arg name=\"\($0.name)\" type=\"\($0.type)\" direction=\"in\"/>" }.joined()
            xml += method.outputs.map { "<arg name=\"\($0.name)\" type=\"\($0.type)\" direction=\"out\"/>" }.joined()
            xml += "</method>\n"
        }
        for signal in interface.signals {
            xml += "  <signal name=\"\(signal.name)\">"
            xml += signal.arguments.map { "<arg name=\"\($0.name)\" type=\"\($0.type)\"/>" }.joined()
            xml += "</signal>\n"
        }
        for property in interface.properties {
            let access = property.setter == nil ? "read" : "readwrite"
            xml += "  <property name=\"\(property.name)\" type=\"\(property.type)\" access=\"\(access)\"/>\n"
        }
        return xml + " </interface>\n"
    }
}
