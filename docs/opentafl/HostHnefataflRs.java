import com.manywords.softworks.tafl.engine.Game;
import com.manywords.softworks.tafl.engine.GameState;
import com.manywords.softworks.tafl.engine.MoveRecord;
import com.manywords.softworks.tafl.engine.clock.TimeSpec;
import com.manywords.softworks.tafl.rules.Rules;
import com.manywords.softworks.tafl.rules.Side;
import com.manywords.softworks.tafl.notation.RulesSerializer;
import com.manywords.softworks.tafl.ui.UiCallback;
import com.manywords.softworks.tafl.command.CommandEngine;
import com.manywords.softworks.tafl.command.CommandResult;
import com.manywords.softworks.tafl.command.player.ExternalEnginePlayer;
import com.manywords.softworks.tafl.command.player.Player;
import com.manywords.softworks.tafl.command.player.external.engine.EngineSpec;
import java.io.File;

/**
 * OpenTafl hosting an OTEP engine on both sides, without its terminal interface: OpenTafl's
 * own game loop (CommandEngine) and engine host (ExternalEnginePlayer), which check every
 * move by OpenTafl's rules and run its clock. See docs/protocols.md, "OpenTafl hosting
 * hnefatafl-rs".
 *
 * Arguments: the engine's .ini file (its directory is taken from ./engines, as OpenTafl
 * does), an OTN rules string, the main time, overtime period and increment in milliseconds
 * with the number of periods between them, the most plies to play, and optionally another
 * .ini file for the defenders (the first one then plays the attackers only) and the most
 * seconds to wait for the end (600 when not given).
 */
public class HostHnefataflRs implements UiCallback {
    volatile boolean finished = false;
    Game game;
    public static void main(String[] args) throws Exception {
        com.manywords.softworks.tafl.rules.Coord.initialize();
        HostHnefataflRs ui = new HostHnefataflRs();
        Rules rules = RulesSerializer.loadRulesRecord(args[1]);
        TimeSpec spec = new TimeSpec(Long.parseLong(args[2]), Long.parseLong(args[3]), Integer.parseInt(args[4]), Long.parseLong(args[5]));
        int maxPlies = Integer.parseInt(args[6]);
        Game g = new Game(rules, ui, spec);
        ui.game = g;
        ExternalEnginePlayer a = new ExternalEnginePlayer();
        a.setEngineSpec(new EngineSpec(new File(args[0])));
        ExternalEnginePlayer d = new ExternalEnginePlayer();
        d.setEngineSpec(new EngineSpec(new File(args.length > 7 ? args[7] : args[0])));
        long waitMillis = 1000L * (args.length > 8 ? Long.parseLong(args[8]) : 600);
        CommandEngine ce = new CommandEngine(g, ui, a, d);
        ce.startGame();
        long start = System.currentTimeMillis();
        while (!ui.finished && g.getHistory().size() <= maxPlies && System.currentTimeMillis() - start < waitMillis) Thread.sleep(100);
        System.out.println("plies: " + (g.getHistory().size() - 1) + " finished: " + ui.finished);
        System.out.println("record: " + g.getHistoryString());
        ce.shutdown();
        System.exit(0);
    }
    public void gameStarting() { System.out.println("game starting"); }
    public void modeChanging(Mode mode, Object gameObject) {}
    public void awaitingMove(Player player, boolean isAttackingSide) {}
    public void timeUpdate(boolean currentSideAttackers) {}
    public void moveResult(CommandResult result, MoveRecord move) { System.out.println("move " + move + " -> " + result.result + " " + result.message); }
    public void statusText(String text) { System.out.println("status: " + text); }
    public void modalStatus(String title, String text) { System.out.println("modal: " + title + ": " + text); }
    public void gameStateAdvanced() {}
    public void victoryForSide(Side side) { System.out.println("victory: " + (side == null ? "none (a draw)" : side.isAttackingSide() ? "attackers" : "defenders")); }
    public void gameFinished() { System.out.println("game finished"); finished = true; }
    public MoveRecord waitForHumanMoveInput() { return null; }
    public boolean inGame() { return !finished; }
}
