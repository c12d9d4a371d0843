extension PetBus {
    /// The `<interface>` element of `dbus/io.petprogress.PetProgress1.xml`, verbatim; a test keeps
    /// the two identical, so `Introspect` always describes the contract.
    public static let interfaceXML = """
          <interface name="io.petprogress.PetProgress1">
            <!-- The entry a widget shows now: the pet part is the snapshot taken at the last local top of
                 the hour; the task part (done/total, next task, upcoming) is live. -->
            <method name="GetWidgetEntry">
              <arg name="entry" type="a{sv}" direction="out"/>
            </method>
            <!-- The entries for the next 24 local tops of the hour, given the data as it stands. -->
            <method name="GetTimeline">
              <arg name="entries" type="aa{sv}" direction="out"/>
            </method>
            <!-- Marks the next task (first not-done task by effective time) done. xp_delta: 2 on time
                 (within the grace window of its scheduled time), 1 late. NothingPending when none. -->
            <method name="MarkNextDone">
              <arg name="id" type="s" direction="out"/>
              <arg name="xp_delta" type="i" direction="out"/>
            </method>
            <!-- Snoozes the next task by the snooze length; until is in Unix seconds. -->
            <method name="SnoozeNext">
              <arg name="id" type="s" direction="out"/>
              <arg name="until" type="x" direction="out"/>
            </method>
            <!-- Marks a task of the open day done. -->
            <method name="MarkDone">
              <arg name="id" type="s" direction="in"/>
              <arg name="xp_delta" type="i" direction="out"/>
            </method>
            <!-- Undoes a completion of the open day; the pet becomes what it would be without it. -->
            <method name="Undo">
              <arg name="id" type="s" direction="in"/>
            </method>
            <!-- Snoozes a pending task of the open day; until is in Unix seconds. -->
            <method name="Snooze">
              <arg name="id" type="s" direction="in"/>
              <arg name="until" type="x" direction="out"/>
            </method>
            <!-- Adds a one-off task to the open day: title 1-200 characters, time HH:MM. -->
            <method name="AddTask">
              <arg name="title" type="s" direction="in"/>
              <arg name="time" type="s" direction="in"/>
              <arg name="id" type="s" direction="out"/>
            </method>
            <!-- Adds a task for day "" / "today" or "tomorrow". With repeat "daily", "weekdays" or a
                 comma list of mon..sun it creates a recurring template (and today's instance when it
                 applies) and returns the template id (t-...). -->
            <method name="AddTaskFor">
              <arg name="title" type="s" direction="in"/>
              <arg name="time" type="s" direction="in"/>
              <arg name="day" type="s" direction="in"/>
              <arg name="repeat" type="s" direction="in"/>
              <arg name="id" type="s" direction="out"/>
            </method>
            <!-- Edits a task or template; an empty string leaves that field unchanged. -->
            <method name="UpdateTask">
              <arg name="id" type="s" direction="in"/>
              <arg name="title" type="s" direction="in"/>
              <arg name="time" type="s" direction="in"/>
            </method>
            <!-- Deletes a task of the open or next day, or a template (stopping future instances). -->
            <method name="DeleteTask">
              <arg name="id" type="s" direction="in"/>
            </method>
            <!-- Task records of a day: "" the open day, "tomorrow" the tasks added for the next day, or a
                 closed day's key YYYY-MM-DD (from history). A day with no record gives an empty list. -->
            <method name="ListTasks">
              <arg name="day" type="s" direction="in"/>
              <arg name="tasks" type="aa{sv}" direction="out"/>
            </method>
            <!-- The recurring templates: id, title, time, repeat. -->
            <method name="ListTemplates">
              <arg name="templates" type="aa{sv}" direction="out"/>
            </method>
            <!-- The live pet (not the hourly snapshot): the pet keys of the widget entry. -->
            <method name="GetPet">
              <arg name="pet" type="a{sv}" direction="out"/>
            </method>
            <!-- Marks (rest true) or unmarks every day from "from" to "to" inclusive as a rest day: closed
                 without judgement (no missed tasks charged, no daily result; completions still count).
                 Each is "today", "tomorrow" or a day key YYYY-MM-DD; the open day and the next 365 days.
                 InvalidArgument: a malformed day, from after to, or a day beyond 365 days; ReadOnlyDay: a
                 day before the open day. Nothing changes on an error. -->
            <method name="SetRest">
              <arg name="from" type="s" direction="in"/>
              <arg name="to" type="s" direction="in"/>
              <arg name="rest" type="b" direction="in"/>
            </method>
            <!-- The marked rest days from the open day on, as day keys, ascending. -->
            <method name="ListRestDays">
              <arg name="days" type="as" direction="out"/>
            </method>
            <!-- Archived days with keys in [from, to] ("" leaves a side open), ascending, at most 31: when
                 more match, the 31 latest and more = true (page back with to = the day before the earliest).
                 Each: day_key, start, end (x), tasks_done, tasks_total (i), rate (d), rest (b), xp_change,
                 daily_xp, stage_index_open, stage_xp_open, stage_index_close, stage_xp_close (i),
                 stage_name_close (s), tasks (aa{sv}, the task records as they stood at closing). -->
            <method name="GetHistory">
              <arg name="from" type="s" direction="in"/>
              <arg name="to" type="s" direction="in"/>
              <arg name="days" type="aa{sv}" direction="out"/>
              <arg name="more" type="b" direction="out"/>
            </method>
            <!-- version, data_dir, last_closed_day, open_day, mutations (t), problems (as), now (x),
                 reply_cache_hits (t). -->
            <method name="GetStatus">
              <arg name="status" type="a{sv}" direction="out"/>
            </method>
            <!-- Emitted once at each local top of the hour with the new entry, and at no other time
                 (except once after a clock jump or zone change that crossed a top of the hour). -->
            <signal name="EntryChanged">
              <arg name="entry" type="a{sv}"/>
            </signal>
            <!-- Emitted after any change to the open day's tasks, including closeouts, and when the open
                 day becomes or stops being a rest day. -->
            <signal name="TasksChanged"/>
            <!-- What GetWidgetEntry returns. -->
            <property name="WidgetEntry" type="a{sv}" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
            </property>
            <!-- HH:MM at which a day ends; a change shapes the next day. Default "00:00". -->
            <property name="ResetTime" type="s" access="readwrite">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
            </property>
            <!-- Minutes either side of a task's time that count as on time, 0-720. Default 60.
                 Also accepts an int32 variant holding a non-negative value. -->
            <property name="GraceMinutes" type="u" access="readwrite">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
            </property>
            <!-- Snooze length in minutes, 1-240. Default 15. Also accepts a non-negative int32. -->
            <property name="SnoozeMinutes" type="u" access="readwrite">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
            </property>
            <!-- Whether a day's unfinished tasks are copied into the next day (still charged as missed). -->
            <property name="Rollover" type="b" access="readwrite">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
            </property>
          </interface>
        """
}
