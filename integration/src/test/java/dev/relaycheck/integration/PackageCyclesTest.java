package dev.relaycheck.integration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Data flows one way between packages: no package of any module's main sources reaches itself through what it
 * imports (single-type, wildcard and static imports, and fully qualified names in code). Between the files of one
 * package, only the Java idioms in {@link #IDIOMS} close a loop.
 */
class PackageCyclesTest {
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import (?:static )?((?:[a-z]\\w*\\.)*[a-z]\\w*)\\.(?:[A-Z]\\w*|\\*)");
    private static final Pattern QUALIFIED = Pattern.compile("\\b(dev\\.relaycheck(?:\\.[a-z]\\w*)*)\\.[A-Z]");

    @Test
    void noPackageOfAnyModuleImportsItselfBack() {
        SortedMap<String, SortedSet<String>> graph = graph(DocsCommandsTest.ROOT);
        assertThat(graph).as("packages read").containsKeys("dev.relaycheck.model", "dev.relaycheck.checker.search",
                "dev.relaycheck.jdbc.adapter");
        assertThat(cycles(graph)).as("package cycles, each as its shortest path back").isEmpty();
    }

    /**
     * The file cycles the language's idioms make, each with why it is one: a new cycle fails the test. A sealed
     * type's {@code permits} and a JUnit annotation's {@code @ExtendWith} are not counted as edges at all.
     */
    private static final Map<String, String> IDIOMS = Map.of(
            "dev.relaycheck.jdbc.db.DbTarget -> dev.relaycheck.jdbc.db.H2Target -> dev.relaycheck.jdbc.db.DbTarget",
            "a sealed interface whose static factories return its permitted implementations",
            "dev.relaycheck.jdbc.db.PostgresTarget -> dev.relaycheck.jdbc.db.DbTarget -> dev.relaycheck.jdbc.db.PostgresTarget",
            "the same sealed interface and its other implementation",
            "dev.relaycheck.jdbc.relay.RelaySpec -> dev.relaycheck.jdbc.relay.RelayUnderTest -> dev.relaycheck.jdbc.relay.RelaySpec",
            "a relay's spec resolves to the relay under test, which keeps its spec for replay lines",
            "dev.relaycheck.junit.FixtureBuilder -> dev.relaycheck.junit.RelayFixture -> dev.relaycheck.junit.FixtureBuilder",
            "a builder and what it builds, whose static factory returns the builder",
            "dev.relaycheck.model.CheckedLogic -> dev.relaycheck.model.DecisionWatch -> dev.relaycheck.model.CheckedLogic",
            "the wrapper that asks the logic and its watchdog, which cuts a hung thread's stack at the wrapper");

    @Test
    void noFileReachesItselfBackButTheIdioms() {
        SortedMap<String, SortedSet<String>> graph = fileGraph(DocsCommandsTest.ROOT);
        assertThat(graph).as("classes read").containsKeys("dev.relaycheck.model.RelayModel",
                "dev.relaycheck.checker.packed.PackedModel");
        assertThat(cycles(graph)).as("file cycles, each as its shortest path back").containsExactlyInAnyOrderElementsOf(IDIOMS.keySet());
    }

    @Test
    void aFileCycleInOnePackageIsFound(@TempDir Path root) throws IOException {
        write(root, "a/src/main/java/dev/relaycheck/one/A.java", "package dev.relaycheck.one;\nclass A { B b; }\n");
        write(root, "a/src/main/java/dev/relaycheck/one/B.java", "package dev.relaycheck.one;\n/** {@link C} */\nclass B { A a; }\n");
        write(root, "a/src/main/java/dev/relaycheck/one/C.java", "package dev.relaycheck.one;\nsealed interface C permits D {}\n");
        write(root, "a/src/main/java/dev/relaycheck/one/D.java", "package dev.relaycheck.one;\nfinal class D implements C {}\n");
        assertThat(cycles(fileGraph(root))).containsExactly("dev.relaycheck.one.A -> dev.relaycheck.one.B -> dev.relaycheck.one.A");
    }

    @Test
    void aCycleThroughAWildcardImportIsFound(@TempDir Path root) throws IOException {
        write(root, "a/src/main/java/dev/relaycheck/one/A.java", "package dev.relaycheck.one;\nimport dev.relaycheck.two.*;\nclass A {}\n");
        write(root, "a/src/main/java/dev/relaycheck/two/B.java", "package dev.relaycheck.two;\nclass B { dev.relaycheck.one.A a; }\n");
        write(root, "a/src/main/java/dev/relaycheck/three/C.java", "package dev.relaycheck.three;\nimport dev.relaycheck.one.A;\nclass C {}\n");
        assertThat(cycles(graph(root))).containsExactly(
                "dev.relaycheck.one -> dev.relaycheck.two -> dev.relaycheck.one");
    }

    private static void write(Path root, String file, String text) throws IOException {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    /** Each package of the main sources under {@code root} with the packages it refers to. */
    static SortedMap<String, SortedSet<String>> graph(Path root) {
        SortedMap<String, SortedSet<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(PackageCyclesTest::mainSource).sorted().toList()) {
                String text = Files.readString(f);
                Matcher p = PACKAGE.matcher(text);
                if (!p.find()) {
                    continue;
                }
                String pkg = p.group(1);
                SortedSet<String> out = graph.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher i = IMPORT.matcher(text);
                while (i.find()) {
                    out.add(i.group(1));
                }
                String code = text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "")
                        .replaceAll("(?m)^(package|import) .*$", "");
                Matcher q = QUALIFIED.matcher(code);
                while (q.find()) {
                    out.add(q.group(1));
                }
                out.remove(pkg);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        graph.values().forEach(out -> out.retainAll(graph.keySet()));
        return graph;
    }

    /**
     * Each class of the main sources under {@code root} (one a file) with the classes it names: same-package simple
     * names in code, imports and qualified names of relaycheck's classes. Comments, strings, a sealed type's
     * {@code permits} and {@code @ExtendWith} do not count.
     */
    static SortedMap<String, SortedSet<String>> fileGraph(Path root) {
        SortedMap<String, String> code = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(PackageCyclesTest::mainSource).sorted().toList()) {
                String text = Files.readString(f);
                Matcher p = PACKAGE.matcher(text);
                if (p.find()) {
                    String name = f.getFileName().toString().replaceFirst("\\.java$", "");
                    code.put(p.group(1) + "." + name, text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "")
                            .replaceAll("\"(?:\\\\.|[^\"\\\\])*+\"", "\"\"").replaceAll("permits [\\w\\s,.]+\\{", "{")
                            .replaceAll("@ExtendWith\\([\\w.]+\\.class\\)", ""));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SortedMap<String, SortedSet<String>> graph = new TreeMap<>();
        Matcher names = Pattern.compile("(?<![\\w.])(?:((?:[a-z]\\w*\\.)+)?([A-Z]\\w*))").matcher("");
        for (Map.Entry<String, String> c : code.entrySet()) {
            String pkg = c.getKey().substring(0, c.getKey().lastIndexOf('.'));
            SortedSet<String> out = graph.computeIfAbsent(c.getKey(), k -> new TreeSet<>());
            names.reset(c.getValue().replaceAll("(?m)^package .*$", "").replaceAll("(?m)^import (static )?", ""));
            while (names.find()) {
                String qualified = names.group(1) == null ? pkg + "." + names.group(2) : names.group(1) + names.group(2);
                if (code.containsKey(qualified) && !qualified.equals(c.getKey())) {
                    out.add(qualified);
                }
            }
        }
        return graph;
    }

    private static boolean mainSource(Path f) {
        String s = f.toString().replace('\\', '/');
        return s.endsWith(".java") && s.contains("/src/main/java/") && !s.contains("/target/") && !s.contains("/.git/");
    }

    /** Every strongly connected set of packages, as one closed path through it; none for an acyclic graph. */
    static List<String> cycles(SortedMap<String, SortedSet<String>> graph) {
        List<String> found = new ArrayList<>();
        Set<String> done = new TreeSet<>();
        for (String start : graph.keySet()) {
            if (done.contains(start)) {
                continue;
            }
            List<String> path = shortestPathBack(graph, start);
            if (path != null) {
                found.add(String.join(" -> ", path));
                done.addAll(path);
            }
        }
        return found;
    }

    /** The shortest path from {@code start} back to it (breadth first, in name order), or null. */
    private static List<String> shortestPathBack(Map<String, SortedSet<String>> graph, String start) {
        Map<String, String> parent = new TreeMap<>();
        List<String> frontier = List.of(start);
        while (!frontier.isEmpty()) {
            List<String> next = new ArrayList<>();
            for (String at : frontier) {
                for (String to : graph.getOrDefault(at, new TreeSet<>())) {
                    if (to.equals(start)) {
                        List<String> path = new ArrayList<>(List.of(start));
                        for (String x = at; x != null && !x.equals(start); x = parent.get(x)) {
                            path.add(1, x);
                        }
                        path.add(start);
                        return path;
                    }
                    if (!parent.containsKey(to)) {
                        parent.put(to, at);
                        next.add(to);
                    }
                }
            }
            frontier = next;
        }
        return null;
    }
}
