// SPDX-License-Identifier: MIT
// The tags of Tagd.TagCloud: tinted checkable capsules at the frames tagd's cloud/layout gave
// (the glass behind them is the TagCloud item's own painting). Internal to the module: bound to
// its TagCloud (cloud); a toggle asks tagd, and the checked state is tagd's selection.
import QtQuick

Item {
    id: root

    required property Item cloud
    // Right to left (LayoutMirroring on the cloud or inherited): the C++ item mirrors tagd's frames.
    readonly property bool mirrored: cloud.LayoutMirroring.enabled

    anchors.fill: parent
    onMirroredChanged: cloud.relayout()

    SystemPalette {
        id: palette
    }

    Repeater {
        model: root.cloud.titles

        delegate: Item {
            id: tag

            required property string modelData
            required property int index
            readonly property var frame: root.cloud.frames[index]
            readonly property bool selected: root.cloud.selection.indexOf(modelData) >= 0
            readonly property color tint: {
                const t = root.cloud.tints[index]
                return t && t.a > 0 ? t : palette.highlight
            }

            function toggle() {
                root.cloud.toggle(modelData)
            }

            visible: frame !== undefined && frame !== null
            x: visible ? frame.x : 0
            y: visible ? frame.y : 0
            width: visible ? frame.width : 0
            height: visible ? frame.height : 0
            activeFocusOnTab: true
            Accessible.role: Accessible.CheckBox
            Accessible.name: modelData
            Accessible.checkable: true
            Accessible.checked: selected
            Accessible.onPressAction: toggle()
            Accessible.onToggleAction: toggle()
            Keys.onSpacePressed: toggle()

            // An unselected tag is the cloud's glass alone (painted at unselectedOpacity): one
            // shape, one outline. A selected tag gets its tint again, up to selectedOpacity.
            Rectangle {
                readonly property real extra: Math.max(0, Math.min(1, (root.cloud.selectedOpacity - root.cloud.unselectedOpacity)
                                                                       / (1 - root.cloud.unselectedOpacity)))

                anchors.fill: parent
                anchors.margins: 1
                radius: height / 2
                visible: tag.selected
                color: Qt.rgba(tag.tint.r, tag.tint.g, tag.tint.b, extra)
                border.color: Qt.rgba(1, 1, 1, 0.59)
                border.width: 1
            }

            Rectangle {
                anchors.fill: parent
                radius: height / 2
                color: "transparent"
                border.color: palette.highlight
                border.width: 2
                visible: tag.activeFocus
            }

            Text {
                anchors.centerIn: parent
                text: tag.modelData
                // Titles semibold, bold when selected (measured bold: selecting moves nothing).
                font.family: root.cloud.font.family
                font.pointSize: root.cloud.font.pointSize
                font.weight: tag.selected ? Font.Bold : Font.DemiBold
                color: tag.selected ? "white" : root.cloud.textColor.valid ? root.cloud.textColor : palette.windowText
                Accessible.ignored: true
            }

            MouseArea {
                anchors.fill: parent
                cursorShape: Qt.PointingHandCursor
                onClicked: {
                    tag.forceActiveFocus(Qt.MouseFocusReason) // as a button takes focus on a click
                    tag.toggle()
                }
            }
        }
    }
}
