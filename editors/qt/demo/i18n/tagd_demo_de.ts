<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>TagdDemo</name>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>Recipe tags</source>
        <translation>Rezept-Tags</translation>
    </message>
    <message>
        <source>Pick your interests</source>
        <translation>Wähle deine Interessen</translation>
    </message>
    <message>
        <source>Press return or type a comma to add one</source>
        <translation>Drücke die Eingabetaste oder tippe ein Komma, um eines hinzuzufügen</translation>
    </message>
    <message>
        <source>Suggested</source>
        <translation>Vorschläge</translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation>%1 hinzufügen</translation>
    </message>
    <message>
        <source>Select the topics you follow. Close tags melt together.</source>
        <translation>Wähle die Themen, denen du folgst. Nahe Tags verschmelzen.</translation>
    </message>
    <message>
        <source>Tight spacing</source>
        <translation>Enger Abstand</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
</context>
</TS>
