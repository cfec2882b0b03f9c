// SPDX-License-Identifier: MIT
// What Tagd.TagEdit shows: a frame like a line edit, the chips (a label and a remove button) and
// the TextInput at the frames tagd's field/layout gave, and the suggestion list. Internal to the
// module: bound to its TagEdit (field), which asks tagd for every decision.
import QtQuick

Item {
    id: root

    required property Item field
    readonly property real pad: field.chipPadding
    readonly property real button: field.chipButtonSize
    // Right to left (LayoutMirroring on the field or inherited): tagd's left-to-right frames are
    // mirrored, and each chip's remove button goes to its left. The C++ item reads this too.
    readonly property bool mirrored: field.LayoutMirroring.enabled
    // The refusal under the field: the item is this much taller while one is shown.
    readonly property real messageHeight: field.refusal.length > 0 ? message.implicitHeight + 4 : 0

    function mirror(frame, width) {
        return mirrored ? flick.width - frame.x - width : frame.x
    }

    anchors.fill: parent

    SystemPalette {
        id: palette
    }

    Rectangle {
        id: frame

        width: parent.width
        height: parent.height - root.messageHeight
        // The seed's field: corners of 14 points, a faint fill (the text colour at 6 % over the
        // page) and, with focus, a 2-point border in the accent colour.
        color: Qt.rgba(palette.text.r, palette.text.g, palette.text.b, 0.06)
        radius: 14
        border.color: input.activeFocus ? palette.highlight : Qt.rgba(palette.text.r, palette.text.g, palette.text.b, 0.15)
        border.width: input.activeFocus ? 2 : 1
    }

    Flickable {
        id: flick

        anchors.fill: frame
        anchors.margins: root.field.margin
        contentWidth: width
        contentHeight: root.field.contentHeight
        clip: true
        interactive: contentHeight > height
        boundsBehavior: Flickable.StopAtBounds

        Repeater {
            id: chips

            model: root.field.chips

            delegate: Item {
                id: chip

                required property var modelData
                required property int index
                readonly property bool selected: index === root.field.selectedIndex
                property bool flashing: false
                property bool removing: false

                function flash() {
                    flashing = true
                    flashTimer.restart()
                }

                x: root.mirror(modelData.frame, modelData.frame.width)
                y: modelData.frame.y
                width: modelData.frame.width
                height: modelData.frame.height
                visible: !removing
                Accessible.role: Accessible.Client
                Accessible.name: modelData.tag

                Timer {
                    id: flashTimer
                    interval: 900
                    onTriggered: chip.flashing = false
                }

                Rectangle {
                    readonly property bool flagged: root.field.flaggedTags.indexOf(chip.modelData.tag) >= 0

                    anchors.fill: parent
                    radius: height / 2
                    // A tag kept although a stricter rule breaks it: outlined in the error colour.
                    border.color: "#c01c28"
                    border.width: flagged ? 2 : 0
                    color: chip.selected ? palette.highlight
                                         : chip.flashing ? Qt.rgba(0.96, 0.76, 0.07, 0.69)
                                                         : Qt.rgba(palette.highlight.r, palette.highlight.g, palette.highlight.b, 0.16)
                }

                Text {
                    x: root.mirrored ? remove.x + remove.width + root.pad / 2 : root.pad
                    width: chip.width - 2 * root.pad - root.button
                    anchors.verticalCenter: parent.verticalCenter
                    text: chip.modelData.tag
                    elide: Text.ElideRight
                    font: root.field.font
                    color: chip.selected ? palette.highlightedText : palette.text
                }

                MouseArea {
                    anchors.fill: parent
                    onPressed: root.field.selectChip(chip.index)
                    onDoubleClicked: root.field.editChip(chip.index)
                }

                // The chip edited in place: its text over the label, all selected. Return
                // commits (field/replaceTag), Escape cancels, focus leaving commits.
                Loader {
                    active: root.field.editingIndex === chip.index
                    x: root.mirrored ? remove.x + remove.width : root.pad / 2
                    y: 1
                    width: Math.max(24, chip.width - root.pad * 1.5 - root.button)
                    height: chip.height - 2

                    sourceComponent: Rectangle {
                        color: palette.base
                        radius: 3

                        TextInput {
                            id: editor

                            property bool done: false

                            function finish(commit) {
                                if (done)
                                    return
                                done = true
                                root.field.finishEdit(commit, text)
                            }

                            anchors.fill: parent
                            anchors.leftMargin: 2
                            anchors.rightMargin: 2
                            verticalAlignment: TextInput.AlignVCenter
                            clip: true
                            font: root.field.font
                            color: palette.text
                            selectionColor: palette.highlight
                            selectedTextColor: palette.highlightedText
                            text: chip.modelData.tag
                            Accessible.role: Accessible.EditableText
                            Accessible.name: qsTranslate("Tagd::TagEdit", "Edit %1").arg(chip.modelData.tag)
                            Accessible.editable: true
                            Keys.onReturnPressed: finish(true)
                            Keys.onEnterPressed: finish(true)
                            Keys.onEscapePressed: finish(false)
                            onActiveFocusChanged: if (!activeFocus) finish(true)
                            Component.onCompleted: {
                                selectAll()
                                forceActiveFocus()
                            }
                        }
                    }
                }

                Item {
                    id: remove

                    function activate() {
                        if (chip.removing)
                            return
                        chip.removing = true
                        root.field.removeTag(chip.modelData.tag)
                    }

                    width: root.button
                    height: root.button
                    x: root.mirrored ? root.pad / 2 : parent.width - width - root.pad / 2
                    y: (parent.height - height) / 2
                    activeFocusOnTab: true
                    Accessible.role: Accessible.Button
                    Accessible.name: qsTranslate("Tagd::TagEdit", "Remove %1").arg(chip.modelData.tag)
                    Accessible.onPressAction: activate()
                    Keys.onSpacePressed: activate()

                    Rectangle {
                        anchors.fill: parent
                        radius: width / 2
                        color: removeArea.containsMouse || remove.activeFocus ? Qt.rgba(0.5, 0.5, 0.5, 0.3) : "transparent"
                    }

                    Text {
                        anchors.centerIn: parent
                        text: "\u00d7"
                        font: root.field.font
                        color: chip.selected ? palette.highlightedText : palette.text
                    }

                    MouseArea {
                        id: removeArea
                        anchors.fill: parent
                        hoverEnabled: true
                        onClicked: remove.activate()
                    }
                }
            }
        }

        TextInput {
            id: input

            objectName: "tagdInput"
            focus: true
            activeFocusOnTab: true
            x: root.mirror(root.field.inputFrame, root.field.inputFrame.width)
            y: root.field.inputFrame.y
            width: root.field.inputFrame.width
            height: Math.max(root.field.inputFrame.height, implicitHeight)
            verticalAlignment: TextInput.AlignVCenter
            font: root.field.font
            color: palette.text
            selectionColor: palette.highlight
            selectedTextColor: palette.highlightedText
            selectByMouse: true
            clip: true
            Accessible.name: root.field.prompt
            Accessible.editable: !readOnly

            onCursorRectangleChanged: {
                const bottom = y + cursorRectangle.y + cursorRectangle.height
                if (bottom > flick.contentY + flick.height)
                    flick.contentY = bottom - flick.height
                else if (y < flick.contentY)
                    flick.contentY = y
            }

            Text {
                anchors.fill: parent
                verticalAlignment: Text.AlignVCenter
                visible: input.text.length === 0 && input.preeditText.length === 0
                text: root.field.prompt
                font: root.field.font
                color: palette.text
                opacity: 0.5
                elide: Text.ElideRight
                Accessible.ignored: true
            }
        }
    }

    // tagd's sentence for the last refusal, under the field (also announced).
    Text {
        id: message

        y: frame.height + 4
        width: parent.width
        visible: root.field.refusal.length > 0
        text: root.field.refusal
        wrapMode: Text.Wrap
        font: root.field.font
        color: "#c01c28"
        Accessible.role: Accessible.StaticText
        Accessible.name: text
    }

    Connections {
        target: root.field
        function onTagDropped(text, reason, index) {
            const chip = chips.itemAt(index)
            if (chip)
                chip.flash()
        }
        function onLaidOut() {
            for (let i = 0; i < chips.count; ++i)
                chips.itemAt(i).removing = false
        }
    }

    // The suggestion list, above everything else in the window.
    Rectangle {
        id: popup

        readonly property point at: root.field.suggestionItems.length, input.mapToItem(parent, 0, input.height)

        parent: root.Window.window ? root.Window.window.contentItem : root
        z: 1000
        visible: root.field.suggestionItems.length > 0 && input.activeFocus
        x: at.x
        y: at.y + 2
        width: Math.max(160, input.width)
        height: rows.implicitHeight + 2
        color: palette.base
        border.color: palette.mid
        Accessible.role: Accessible.List
        Accessible.name: qsTranslate("Tagd::TagEdit", "Suggestions")

        Column {
            id: rows
            x: 1
            y: 1
            width: parent.width - 2

            Repeater {
                model: root.field.suggestionItems

                delegate: Rectangle {
                    id: row

                    required property var modelData
                    required property int index
                    readonly property bool current: index === root.field.currentSuggestion

                    width: rows.width
                    height: label.implicitHeight + 6
                    color: current ? palette.highlight : "transparent"
                    Accessible.role: Accessible.ListItem
                    Accessible.name: modelData.text
                    Accessible.selected: current

                    Text {
                        id: label
                        x: 6
                        anchors.verticalCenter: parent.verticalCenter
                        textFormat: Text.StyledText
                        text: row.modelData.rich
                        font: root.field.font
                        color: row.current ? palette.highlightedText : palette.text
                        Accessible.ignored: true
                    }

                    MouseArea {
                        anchors.fill: parent
                        onClicked: root.field.takeSuggestion(row.index)
                    }
                }
            }
        }
    }
}
