<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>Tagd::TagEdit</name>
    <message>
        <source>Remove %1</source>
        <extracomment>The accessible name and tooltip of a chip&apos;s remove button; %1 is the tag.</extracomment>
        <translation>%1 entfernen</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <extracomment>The accessible name of the text that edits a chip in place; %1 is the tag.</extracomment>
        <translation>%1 bearbeiten</translation>
    </message>
    <message>
        <source>Suggestions</source>
        <translation>Vorschläge</translation>
    </message>
</context>
</TS>
