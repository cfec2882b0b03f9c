"""An Orca speech server that writes what Orca would say to a file instead of a sound device.

Orca loads it by name (its `speechServerFactory` setting) from PYTHONPATH; the file is
$TAGD_SPEECH_LOG, one utterance per line. Used only by the real-window tests."""
import os
import time

from orca import speechserver

_LOG = os.environ.get("TAGD_SPEECH_LOG", "/dev/null")


def _write(kind, text):
    if text is None:
        return
    if not isinstance(text, str):
        text = " ".join(str(t) for t in text if isinstance(t, str))
    text = " ".join(text.split())
    if not text:
        return
    with open(_LOG, "a", encoding="utf-8") as f:
        f.write("%.3f\t%s\t%s\n" % (time.monotonic(), kind, text))


class SpeechServer(speechserver.SpeechServer):
    _active = None

    @staticmethod
    def getFactoryName():
        return "tagd test speech"

    @staticmethod
    def getSpeechServers():
        return [SpeechServer._server()]

    @staticmethod
    def getSpeechServer(info=None):
        return SpeechServer._server()

    @staticmethod
    def shutdownActiveServers():
        SpeechServer._active = None

    @staticmethod
    def _server():
        if SpeechServer._active is None:
            SpeechServer._active = SpeechServer()
        return SpeechServer._active

    def getInfo(self):
        return ["tagd test speech", "tagd-test"]

    def getVoiceFamilies(self):
        return []

    def speak(self, text=None, acss=None, interrupt=True):
        _write("speak", text)

    def speakCharacter(self, character, acss=None):
        _write("char", character)

    def speakKeyEvent(self, event, acss=None):
        pass

    def sayAll(self, utteranceIterator, progressCallback):
        for context, _acss in utteranceIterator:
            _write("sayall", context.utterance)

    def stop(self):
        pass

    def shutdown(self):
        pass

    def reset(self, text=None, acss=None):
        pass
