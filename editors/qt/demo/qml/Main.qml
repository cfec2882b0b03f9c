// SPDX-License-Identifier: MIT
// The two seed screens with the Tagd 1.0 items: "Recipe tags" (a TagEdit and the Suggested
// capsules) and "Pick your interests" (the glass TagCloud on a dark page, "Tight spacing").
import QtQuick
import QtQuick.Window
import Tagd

Window {
    id: window

    property int page: 0
    property var announcements: []
    property var dropped: []
    readonly property color teal: Qt.rgba(48 / 255, 176 / 255, 199 / 255, 1)

    title: qsTranslate("TagdDemo", "Tags")
    width: 640
    height: 420
    visible: true

    SystemPalette {
        id: palette
    }

    Rectangle {
        anchors.fill: parent
        color: palette.window
    }

    // The page switcher: two tabs.
    Row {
        id: tabs

        x: 8
        y: 8
        spacing: 4

        Repeater {
            model: [qsTranslate("TagdDemo", "Recipe tags"), qsTranslate("TagdDemo", "Pick your interests"),
                qsTranslate("TagdDemo", "Notes")]

            delegate: Rectangle {
                id: tab

                required property string modelData
                required property int index

                width: tabLabel.implicitWidth + 24
                height: tabLabel.implicitHeight + 12
                radius: 4
                color: window.page === index ? palette.base : palette.button
                border.color: palette.mid
                activeFocusOnTab: true
                Accessible.role: Accessible.PageTab
                Accessible.name: modelData
                Accessible.selected: window.page === index
                Accessible.onPressAction: window.page = index
                Keys.onSpacePressed: window.page = index

                Text {
                    id: tabLabel
                    anchors.centerIn: parent
                    text: tab.modelData
                    color: palette.buttonText
                }

                MouseArea {
                    anchors.fill: parent
                    onClicked: window.page = tab.index
                }
            }
        }
    }

    // "Recipe tags"
    Item {
        id: recipe

        // --rtl: the application's layout direction, mirrored as Qt Quick mirrors layouts.
        LayoutMirroring.enabled: Qt.application.layoutDirection === Qt.RightToLeft
        LayoutMirroring.childrenInherit: true

        anchors.fill: parent
        anchors.topMargin: tabs.height + 16
        visible: window.page === 0

        Column {
            anchors.fill: parent
            anchors.leftMargin: 24
            anchors.rightMargin: 24
            anchors.topMargin: 12
            spacing: 8

            Text {
                text: qsTranslate("TagdDemo", "Recipe tags")
                font.pointSize: Qt.application.font.pointSize * 1.6
                font.weight: Font.DemiBold
                color: palette.windowText
            }

            // The seed's subtitle: the text colour at 60 %.
            Text {
                objectName: "subtitle"
                text: qsTranslate("TagdDemo", "Press return or type a comma to add one")
                color: Qt.rgba(palette.windowText.r, palette.windowText.g, palette.windowText.b, 0.6)
            }

            TagEdit {
                id: entry

                objectName: "entry"
                width: parent.width
                focus: true
                tags: ["vegan", "dinner", "weeknight"]
                suggestions: ["spicy", "gluten-free", "30 minutes", "one pot", "vegetarian", "breakfast", "dessert",
                    "quick", "family", "soup"]
                onAnnounced: sentence => {
                    window.announcements = window.announcements.concat([sentence])
                    status.text = sentence
                }
                onTagDropped: (text, reason, index) => {
                    window.dropped = window.dropped.concat([{text: text, reason: reason, index: index}])
                }
            }

            Text {
                topPadding: 8
                text: qsTranslate("TagdDemo", "Suggested")
                color: palette.windowText
            }

            Row {
                spacing: 6

                Repeater {
                    model: ["spicy", "gluten-free", "30 minutes", "one pot"]

                    // A Suggested button: a teal capsule with a plus; gone while its tag is there.
                    delegate: Rectangle {
                        id: capsule

                        required property string modelData

                        visible: !entry.tags.some(t => t.toLowerCase() === modelData.toLowerCase())
                        width: visible ? plus.width + label.implicitWidth + height + 6 : 0
                        height: label.implicitHeight + 10
                        radius: height / 2
                        color: Qt.rgba(window.teal.r, window.teal.g, window.teal.b, area.pressed ? 0.4 : area.containsMouse ? 0.3 : 0.2)
                        border.color: Qt.rgba(window.teal.r, window.teal.g, window.teal.b, activeFocus ? 1 : 0.7)
                        border.width: activeFocus ? 2 : 1
                        activeFocusOnTab: true
                        Accessible.role: Accessible.Button
                        Accessible.name: qsTranslate("TagdDemo", "Add %1").arg(modelData)
                        Accessible.onPressAction: entry.addTags([modelData])
                        Keys.onSpacePressed: entry.addTags([modelData])

                        Text {
                            id: plus
                            x: capsule.height / 2
                            anchors.verticalCenter: parent.verticalCenter
                            text: "+"
                            color: Qt.darker(window.teal, 1.3)
                            font.bold: true
                        }

                        Text {
                            id: label
                            x: plus.x + plus.width + 6
                            anchors.verticalCenter: parent.verticalCenter
                            text: capsule.modelData
                            color: palette.buttonText
                        }

                        MouseArea {
                            id: area
                            anchors.fill: parent
                            hoverEnabled: true
                            cursorShape: Qt.PointingHandCursor
                            onClicked: entry.addTags([capsule.modelData])
                        }
                    }
                }
            }
        }
    }

    // "Pick your interests": the seed's dark page
    Rectangle {
        id: interests

        objectName: "interests"
        LayoutMirroring.enabled: Qt.application.layoutDirection === Qt.RightToLeft
        LayoutMirroring.childrenInherit: true

        anchors.fill: parent
        anchors.topMargin: tabs.height + 16
        anchors.bottomMargin: status.height + 8
        // The seed's page: dark indigo fading to black.
        gradient: Gradient {
            GradientStop { position: 0; color: "#231f5c" }
            GradientStop { position: 1; color: "black" }
        }
        visible: window.page === 1

        Column {
            anchors.fill: parent
            anchors.leftMargin: 24
            anchors.rightMargin: 24
            anchors.topMargin: 12
            spacing: 12

            Text {
                objectName: "interestsTitle"
                text: qsTranslate("TagdDemo", "Pick your interests")
                font.pointSize: Qt.application.font.pointSize * 1.6
                font.weight: Font.DemiBold
                color: "#f2f2f7"
            }

            Text {
                text: qsTranslate("TagdDemo", "Select the topics you follow. Close tags melt together.")
                color: Qt.rgba(0.95, 0.95, 0.97, 0.6)
            }

            // "Tight spacing": a switch (a check box to assistive technology), green when on; the label
            // leading, the switch trailing, above the cloud (whose height changes as it animates).
            Item {
                id: tight

                property bool checked: false

                objectName: "tight"
                width: parent.width
                height: Math.max(track.height + 4, switchLabel.implicitHeight)
                activeFocusOnTab: true
                Accessible.role: Accessible.CheckBox
                Accessible.name: qsTranslate("TagdDemo", "Tight spacing")
                Accessible.checkable: true
                Accessible.checked: checked
                Accessible.onPressAction: checked = !checked
                Accessible.onToggleAction: checked = !checked
                Keys.onSpacePressed: checked = !checked

                Rectangle {
                    id: track
                    width: 38
                    height: 22
                    anchors.right: parent.right
                    anchors.verticalCenter: parent.verticalCenter
                    radius: height / 2
                    color: tight.checked ? "#30d158" : "#8e8e93"
                    border.color: palette.highlight
                    border.width: tight.activeFocus ? 2 : 0

                    Rectangle {
                        width: parent.height - 4
                        height: width
                        radius: width / 2
                        y: 2
                        x: tight.checked ? parent.width - width - 2 : 2
                        color: "white"
                    }
                }

                Text {
                    id: switchLabel
                    anchors.left: parent.left
                    anchors.verticalCenter: parent.verticalCenter
                    text: qsTranslate("TagdDemo", "Tight spacing")
                    color: "#f2f2f7"
                }

                MouseArea {
                    anchors.fill: parent
                    onClicked: tight.checked = !tight.checked
                }
            }

            TagCloud {
                id: cloud

                objectName: "cloud"
                width: parent.width
                height: implicitHeight
                titles: ["SwiftUI", "Animation", "Layout", "Glass", "Gestures", "Symbols", "Charts", "Navigation",
                    "Metal", "Widgets"]
                tints: ["#0a84ff", "#ff375f", "#ff9f0a", "#40c8e0", "#bf5af2", "#30d158", "#ff453a", "#5e5ce6",
                    "#66d4cf", "#ffd60a"]
                selection: ["SwiftUI"]
                spacing: tight.checked ? 3 : 18
                selectedOpacity: 0.85
                unselectedOpacity: 0.3
                textColor: "#f2f2f7"
            }

        }
    }

    // "Notes": a notes app on a folder of Markdown notes (--vault DIR; SPEC §6d). A cloud of the
    // folder's tags, most used first; the notes carrying every selected tag; and for the note
    // picked, a tag entry that writes its front matter through tagd's document/setTags.
    Item {
        id: notesPage

        property string note: "" // the picked note's URI
        property var loaded: [] // its tags as read: the entry's changes before it shows them are not edits
        property bool armed: false
        readonly property var names: notesCloud.noteTitles // the notes as listed: by their titles
        readonly property string noteName: note === "" ? "" : noteFiles.name(note)

        function same(a, b) {
            return a.length === b.length && a.every((t, i) => t === b[i])
        }
        function pick(uri) {
            note = uri
            armed = false
            noteFiles.load(uri)
        }
        function edited() {
            if (note === "")
                return
            if (!armed) {
                armed = same(noteEntry.tags, loaded)
                return
            }
            noteFiles.save(note, noteEntry.tags)
        }

        objectName: "notesPage"
        LayoutMirroring.enabled: Qt.application.layoutDirection === Qt.RightToLeft
        LayoutMirroring.childrenInherit: true
        anchors.fill: parent
        anchors.topMargin: tabs.height + 16
        anchors.bottomMargin: 32
        visible: window.page === 2

        Connections {
            target: noteFiles

            function onLoaded(uri, tags) {
                if (uri !== notesPage.note)
                    return
                notesPage.loaded = tags
                notesPage.armed = notesPage.same(noteEntry.tags, tags)
                noteEntry.tags = tags
            }
            // tagd sees the change (inotify) on its own, typically within a second.
            function onWritten() {
                reload.restart()
            }
        }

        Timer {
            id: reload

            interval: 300
            repeat: true
            property int left: 0
            onRunningChanged: if (running) left = 5
            onTriggered: {
                notesCloud.reloadVault()
                if (--left <= 0)
                    stop()
            }
        }

        Column {
            anchors.fill: parent
            anchors.leftMargin: 24
            anchors.rightMargin: 24
            anchors.topMargin: 12
            spacing: 8

            Text {
                text: qsTranslate("TagdDemo", "Notes")
                font.pointSize: Qt.application.font.pointSize * 1.6
                font.weight: Font.DemiBold
                color: palette.windowText
            }

            Text {
                text: noteFiles.vault === "" ? qsTranslate("TagdDemo", "Start the demo with --vault DIR to see a folder's notes.")
                                             : qsTranslate("TagdDemo", "Select tags to find the notes that carry them.")
                color: Qt.rgba(palette.windowText.r, palette.windowText.g, palette.windowText.b, 0.6)
            }

            TagCloud {
                id: notesCloud

                objectName: "notesCloud"
                width: parent.width
                vault: noteFiles.vault
                Accessible.name: qsTranslate("TagdDemo", "Tags of the notes")
            }

            ListView {
                id: noteList

                width: parent.width
                height: 110
                clip: true
                model: notesCloud.notes
                Accessible.role: Accessible.List
                Accessible.name: qsTranslate("TagdDemo", "Notes with the selected tags")

                // A note is shown by its title (noteTitles, in the order of notes) and picked by its URI.
                delegate: Rectangle {
                    required property string modelData
                    required property int index
                    readonly property string title: notesCloud.noteTitles[index] ?? ""

                    width: ListView.view.width
                    height: noteLabel.implicitHeight + 8
                    color: notesPage.note === modelData ? palette.highlight : "transparent"
                    Accessible.role: Accessible.ListItem
                    Accessible.name: title
                    Accessible.selected: notesPage.note === modelData
                    Accessible.onPressAction: notesPage.pick(modelData)

                    Text {
                        id: noteLabel

                        x: 6
                        anchors.verticalCenter: parent.verticalCenter
                        text: parent.title
                        color: notesPage.note === parent.modelData ? palette.highlightedText : palette.text
                    }

                    MouseArea {
                        anchors.fill: parent
                        onClicked: notesPage.pick(parent.modelData)
                    }
                }
            }

            Text {
                text: qsTranslate("TagdDemo", "Tags of the picked note")
                color: palette.windowText
            }

            TagEdit {
                id: noteEntry

                objectName: "noteEntry"
                width: parent.width
                enabled: notesPage.note !== ""
                vault: noteFiles.vault
                onTagsChanged: notesPage.edited()
            }
        }
    }

    // Every announcement, where a window shows status.
    Text {
        id: status

        anchors.left: parent.left
        anchors.bottom: parent.bottom
        anchors.margins: 8
        text: qsTranslate("TagdDemo", "Ready")
        color: palette.windowText
    }
}
