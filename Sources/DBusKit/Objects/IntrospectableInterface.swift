/// `org.freedesktop.DBus.Introspectable`: serves the object's given XML.
public enum IntrospectableInterface {
    /// The interface name.
    public static let name = "org.freedesktop.DBus.Introspectable"

    /// The standard interfaces every ``ExportedObject`` implements, as introspection XML fragments.
    public static let standardInterfacesXML = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect">
              <arg name="xml_data" type="s" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId">
              <arg name="machine_uuid" type="s" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="out"/>
            </method>
            <method name="GetAll">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="properties" type="a{sv}" direction="out"/>
            </method>
            <method name="Set">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="in"/>
            </method>
            <signal name="PropertiesChanged">
              <arg name="interface_name" type="s"/>
              <arg name="changed_properties" type="a{sv}"/>
              <arg name="invalidated_properties" type="as"/>
            </signal>
          </interface>

        """

    /// A complete introspection document: the doctype, the standard interfaces, then `interfacesXML`
    /// (one or more `<interface>` elements, e.g. the contents of the project's interface file).
    public static func document(interfacesXML: String) -> String {
        """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
        \(standardInterfacesXML)\(interfacesXML)
        </node>

        """
    }

    static func handle(member: String, message: Message, object: ExportedObject) -> ObjectDispatcher.Outcome? {
        guard member == "Introspect" else { return nil }
        guard message.signature.isEmpty else {
            return .failure(.invalidArgs("Introspect takes no arguments, got '\(message.signature)'."))
        }
        return .success(.values([.string(object.introspectionXML)]))
    }
}
