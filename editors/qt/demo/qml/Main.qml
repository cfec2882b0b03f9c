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

    title: "Tags"
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
            model: ["Recipe tags", "Pick your interests"]

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
                text: "Recipe tags"
                font.pointSize: Qt.application.font.pointSize * 1.6
                font.weight: Font.DemiBold
                color: palette.windowText
            }

            Text {
                text: "Press return or type a comma to add one"
                color: palette.windowText
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
                text: "Suggested"
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
                        Accessible.name: "Add " + modelData
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

        LayoutMirroring.enabled: Qt.application.layoutDirection === Qt.RightToLeft
        LayoutMirroring.childrenInherit: true

        anchors.fill: parent
        anchors.topMargin: tabs.height + 16
        anchors.bottomMargin: status.height + 8
        color: "#1c1c1e"
        visible: window.page === 1

        Column {
            anchors.fill: parent
            anchors.leftMargin: 24
            anchors.rightMargin: 24
            anchors.topMargin: 12
            spacing: 12

            Text {
                text: "Pick your interests"
                font.pointSize: Qt.application.font.pointSize * 1.6
                font.weight: Font.DemiBold
                color: "#f2f2f7"
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

            // "Tight spacing": a switch (a check box to assistive technology), green when on.
            Item {
                id: tight

                property bool checked: false

                width: track.width + 8 + switchLabel.implicitWidth
                height: Math.max(track.height + 4, switchLabel.implicitHeight)
                activeFocusOnTab: true
                Accessible.role: Accessible.CheckBox
                Accessible.name: "Tight spacing"
                Accessible.checkable: true
                Accessible.checked: checked
                Accessible.onPressAction: checked = !checked
                Accessible.onToggleAction: checked = !checked
                Keys.onSpacePressed: checked = !checked

                Rectangle {
                    id: track
                    width: 38
                    height: 22
                    anchors.verticalCenter: parent.verticalCenter
                    radius: height / 2
                    color: tight.checked ? "#30d158" : "#a0787880"
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
                    x: track.width + 8
                    anchors.verticalCenter: parent.verticalCenter
                    text: "Tight spacing"
                    color: "#f2f2f7"
                }

                MouseArea {
                    anchors.fill: parent
                    onClicked: tight.checked = !tight.checked
                }
            }
        }
    }

    // Every announcement, where a window shows status.
    Text {
        id: status

        anchors.left: parent.left
        anchors.bottom: parent.bottom
        anchors.margins: 8
        text: "Ready"
        color: palette.windowText
    }
}
