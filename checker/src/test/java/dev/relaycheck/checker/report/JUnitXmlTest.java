package dev.relaycheck.checker.report;

import dev.relaycheck.checker.cli.ChildCli;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code check} writes JUnit XML beside its report, read back here with the JDK's XML parser as a CI server reads it;
 * and the failure records it leaves under results/failures/ are the next run's regression corpus, replayed first.
 */
class JUnitXmlTest {
    private static final String SCENARIO = "stale-ack-after-expiry";

    @Test
    void aCleanCheckHasATestCasePerScenarioVariantAndChecker() throws Exception {
        Path results = Files.createTempDirectory("relaycheck-junit-xml");
        ChildCli.Run run = ChildCli.run(Path.of("."), "check", "--only", "model", "-s", SCENARIO, "--results", results.toString());
        Document xml = read(results);
        assertThat(cases(xml, "scenarios")).extracting(c -> c.getAttribute("name")).containsExactly("correct on " + SCENARIO);
        assertThat(failure(xml, "scenarios", "correct on " + SCENARIO)).isNull();
        assertThat(failure(xml, "variants", "ack-ignores-token")).as(run.toString()).isNull(); // caught
        assertThat(cases(xml, "variants")).hasSizeGreaterThan(5);
        assertThat(cases(xml, "checkers")).extracting(c -> c.getAttribute("name")).contains("model", "jcstress", "lincheck", "sql");
        assertThat(skipped(xml, "checkers", "jcstress")).isNotNull();
        // a variant this one scenario cannot show escapes: the XML says so as the console does
        long escapedHere = cases(xml, "variants").stream().filter(c -> c.getElementsByTagName("failure").getLength() > 0).count();
        assertThat(run.out()).contains(escapedHere == 0 ? "PASS: " : "FAIL: ");
        // and the model's column, whose rows list the variants it let through
        Element model = failure(xml, "checkers", "model");
        assertThat(model == null).isEqualTo(escapedHere == 0);
        assertThat(Integer.parseInt(xml.getDocumentElement().getAttribute("failures"))).isEqualTo((int) escapedHere + (model == null ? 0 : 1));
    }

    @Test
    void aViolationIsAFailureWithTheTracesFirstLinesAndTheReplayLineAndComesBackFirstNextRun() throws Exception {
        Path results = Files.createTempDirectory("relaycheck-junit-xml");
        String[] check = {"check", "--only", "model", "-s", SCENARIO, "--logic", "ack-ignores-token", "--results", results.toString()};
        ChildCli.Run first = ChildCli.run(Path.of("."), check);
        assertThat(first.exit()).as(first.toString()).isEqualTo(1);
        Element f = failure(read(results), "scenarios", "ack-ignores-token on " + SCENARIO);
        assertThat(f).as(first.toString()).isNotNull();
        assertThat(f.getAttribute("message")).contains("VIOLATION STALE_ACK_REJECTED");
        assertThat(f.getTextContent()).contains("<== STALE_ACK_REJECTED").containsPattern("replay: \\S*relaycheck replay rc1:\\S+");
        assertThat(results.resolve("failures/ack-ignores-token--" + SCENARIO + "--STALE_ACK_REJECTED.replay")).exists();

        ChildCli.Run again = ChildCli.run(Path.of("."), check);
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.out()).contains("== regression corpus: 1 recorded failures of ack-ignores-token replayed first")
                .contains("CAME BACK VIOLATION").contains("came back (" + results.resolve("failures") + ", replayed before any search)")
                .containsPattern("(?m)^  replay: {5}\\S*relaycheck replay rc1:\\S+$")
                .doesNotContain("== model kill matrix"); // it stopped before any search
        Element back = failure(read(results), "corpus", "ack-ignores-token--" + SCENARIO + "--STALE_ACK_REJECTED.replay");
        assertThat(back).isNotNull();
        assertThat(back.getAttribute("message")).isEqualTo("a recorded failure came back: VIOLATION");
        assertThat(back.getTextContent()).containsPattern("\nreplay: \\S*relaycheck replay rc1:\\S+$");

        // the correct logic passes with the corpus of another logic beside it: a record is replayed against its own logic only
        ChildCli.Run fixed = ChildCli.run(Path.of("."), "check", "--only", "model", "-s", SCENARIO, "--results", results.toString());
        assertThat(fixed.out()).doesNotContain("== regression corpus");
        assertThat(cases(read(results), "corpus")).isEmpty();
    }

    private static Document read(Path results) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(results.resolve(JUnitXml.FILE).toFile());
    }

    private static List<Element> cases(Document xml, String suite) {
        List<Element> out = new ArrayList<>();
        NodeList all = xml.getElementsByTagName("testcase");
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            if (e.getAttribute("classname").equals("relaycheck." + suite)) {
                out.add(e);
            }
        }
        return out;
    }

    private static Element child(Document xml, String suite, String name, String tag) {
        Element c = cases(xml, suite).stream().filter(e -> e.getAttribute("name").equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no test case " + suite + "/" + name));
        NodeList f = c.getElementsByTagName(tag);
        return f.getLength() == 0 ? null : (Element) f.item(0);
    }

    private static Element failure(Document xml, String suite, String name) {
        return child(xml, suite, name, "failure");
    }

    private static Element skipped(Document xml, String suite, String name) {
        return child(xml, suite, name, "skipped");
    }
}
