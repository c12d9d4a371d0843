extension TestService {
    /// The test interface as introspection XML (the standard interfaces are added by DBusKit).
    static let introspectionXML = """
          <interface name="org.example.DBusKitTest1">
            <method name="Echo"/>
            <method name="EchoString">
              <arg name="text" type="s" direction="in"/>
              <arg name="echo" type="s" direction="out"/>
            </method>
            <method name="Add">
              <arg name="a" type="i" direction="in"/>
              <arg name="b" type="i" direction="in"/>
              <arg name="sum" type="i" direction="out"/>
            </method>
            <method name="MakeString">
              <arg name="length" type="u" direction="in"/>
              <arg name="text" type="s" direction="out"/>
            </method>
            <method name="Fail">
              <arg name="name" type="s" direction="in"/>
              <arg name="message" type="s" direction="in"/>
            </method>
            <method name="EmitPing">
              <arg name="text" type="s" direction="in"/>
            </method>
            <method name="ArmTimer">
              <arg name="milliseconds" type="u" direction="in"/>
              <arg name="due_ns" type="t" direction="out"/>
            </method>
            <method name="SetCounter">
              <arg name="value" type="u" direction="in"/>
            </method>
            <method name="ResidentKiB">
              <arg name="kib" type="t" direction="out"/>
            </method>
            <method name="Quit"/>
            <signal name="Pinged">
              <arg name="text" type="s"/>
            </signal>
            <signal name="Tick">
              <arg name="due_ns" type="t"/>
            </signal>
            <property name="Counter" type="u" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
            </property>
            <property name="Label" type="s" access="readwrite"/>
            <property name="Level" type="u" access="readwrite"/>
            <property name="Record" type="a{sv}" access="read"/>
          </interface>
        """
}
