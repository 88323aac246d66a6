#!/bin/sh
# Builds OpenTafl v0.4.8.0b from its source, and the host of docs/opentafl/HostHnefataflRs.java
# beside it, with Debian's JDK and libraries (no Gradle, no network):
#
#     apt-get install default-jdk-headless libini4j-java libjline2-java
#     git clone https://github.com/jslater89/OpenTafl && git -C OpenTafl checkout v0.4.8.0b
#     docs/opentafl/build.sh OpenTafl
#
# OpenTafl's PlayTaflOnline importer needs javax.json, which Debian does not package: its
# files are left out, and its two callers (the `--pto-json` option and a menu button) are
# cut off, by the two `sed` lines below. Nothing else of OpenTafl changes. It is compiled
# as Java 8 source, as it was written (it uses `sun.net` and `com.sun` classes, which a
# Java 9 module check refuses).
#
# Afterwards `<OpenTafl>/out` holds OpenTafl's classes and `<OpenTafl>/host` the host; see
# docs/protocols.md, "OpenTafl hosting hnefatafl-rs", for running a game.
set -eu

opentafl=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
jars="$opentafl/lib/lanterna.jar:/usr/share/java/ini4j.jar:/usr/share/java/jline2.jar"

cd "$opentafl"
sed -i -e '/import com.manywords.softworks.tafl.notation.playtaflonline/d' \
    -e 's/Game g = PlayTaflOnlineJsonTranslator.readJsonFile(new File(filename));/Game g = null;/' \
    src/com/manywords/softworks/tafl/OpenTafl.java
sed -i 's/() -> new DownloadPlayTaflOnlineDialog(mTerminalCallback).showDialog(getTextGUI())/() -> {}/' \
    src/com/manywords/softworks/tafl/ui/lanterna/window/mainmenu/OtherOperationsWindow.java
find src -name '*.java' | grep -v -e /playtaflonline/ -e DownloadPlayTaflOnlineDialog > files.txt
mkdir -p out host
javac -nowarn -encoding UTF-8 -source 8 -target 8 -cp "$jars" -d out @files.txt
javac -cp "out:$jars" -d host "$here/HostHnefataflRs.java"
echo "built $opentafl/out and $opentafl/host"
