"""An Orca speech server that writes what Orca would say to the file $TAGD_SPEECH_LOG, one
utterance a line, instead of a sound device. Named by `speechServerFactory` in the test's Orca
settings (run-tests puts this directory on Orca's PYTHONPATH)."""
import os

from orca import speechserver


class SpeechServer(speechserver.SpeechServer):
    _active = None

    @staticmethod
    def getFactoryName():
        return "tagd test speech (to a file)"

    @staticmethod
    def getSpeechServers():
        return [SpeechServer.getSpeechServer()]

    @staticmethod
    def getSpeechServer(info=None):
        if SpeechServer._active is None:
            SpeechServer._active = SpeechServer()
        return SpeechServer._active

    @staticmethod
    def shutdownActiveServers():
        SpeechServer._active = None

    def __init__(self):
        super().__init__()
        self.path = os.environ["TAGD_SPEECH_LOG"]

    def _write(self, text):
        if text is None:
            return
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(str(text).replace("\n", " ") + "\n")

    def getInfo(self):
        return ["tagd test speech", "file"]

    def getVoiceFamilies(self):
        return []

    def speak(self, text=None, acss=None, interrupt=True):
        self._write(text)

    def speakCharacter(self, character, acss=None):
        self._write("char: %s" % character)

    def speakKeyEvent(self, event, acss=None):
        self._write("key: %s" % getattr(event, "event_string", event))

    def sayAll(self, utteranceIterator, progressCallback):
        for context, acss in utteranceIterator:
            self._write(context.utterance)

    def stop(self):
        pass

    def shutdown(self):
        pass

    def reset(self, text=None, acss=None):
        pass
