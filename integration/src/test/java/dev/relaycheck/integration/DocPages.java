package dev.relaycheck.integration;

import dev.relaycheck.checker.cli.RelaycheckCli;
import dev.relaycheck.model.command.ShellWords;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a documentation page promises, read from its markdown: the {@code ./relaycheck} commands of its code blocks
 * with the exit code each is marked with ({@code # exit 1}; unmarked means 0), and the classes, repository paths, CLI
 * options and links its text names. {@link #problems} says which of those do not exist; running the commands is
 * {@link DocCommands}' job.
 */
final class DocPages {
    /** A command of a code block: the page, its line, the text as written (continuations joined), the exit it promises. */
    record Command(String page, int line, String text, int exit) {
        /** The relaycheck words: after {@code ./relaycheck}, up to the first shell operator or comment. */
        List<String> words() {
            List<String> all = ShellWords.split(text.replaceFirst("^\\./relaycheck\\s*", ""));
            List<String> words = new ArrayList<>();
            for (String w : all) {
                if (Set.of("|", ">", ">>", "&&", ";", "2>&1").contains(w) || w.startsWith("#")) {
                    break;
                }
                words.add(w);
            }
            return words;
        }

        @Override
        public String toString() {
            return page + ":" + line + ": " + text;
        }
    }

    private static final Pattern FENCE = Pattern.compile("^\\s*```.*");
    private static final Pattern EXIT = Pattern.compile("#.*\\bexit (\\d+)");
    private static final Pattern INLINE = Pattern.compile("`([^`\n]+?)`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern QUALIFIED = Pattern.compile("(?:[a-z][a-z0-9]*\\.)+([A-Z][A-Za-z0-9_]*)((?:\\.[A-Za-z_][A-Za-z0-9_]*)*)");
    private static final Pattern TYPE = Pattern.compile("([A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*)((?:\\.[A-Za-z_][A-Za-z0-9_]*)*)");
    private static final Pattern OPTION = Pattern.compile("--[a-z][a-z0-9-]*");
    private static final Pattern PATH = Pattern.compile("\\.?[\\w-]+(?:/[\\w.\\-]+|/\\.\\.\\.)+/?");
    private static final List<String> JDK_PACKAGES = List.of("java.lang.", "java.util.", "java.util.concurrent.", "java.sql.",
            "javax.sql.", "java.time.", "java.io.", "java.nio.file.");

    private static final Pattern DECLARATION = Pattern.compile("^\\s*(?:(?:public|protected|private|static|final|abstract|"
            + "sealed|non-sealed|strictfp)\\s+)*(?:class|interface|enum|record|@interface)\\s+([A-Za-z_][A-Za-z0-9_]*)",
            Pattern.MULTILINE);
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

    /** The CLI's own model of its commands and options (parsing with it runs nothing). */
    private static final CommandLine CLI = new CommandLine(new RelaycheckCli());

    private final Path root;
    /** Each simple name declared in the repository's sources, with the text of every file that declares it. */
    private final Map<String, List<String>> declared = new HashMap<>();
    /** Each package, with the simple names declared in it. */
    private final Map<String, Set<String>> packages = new HashMap<>();
    private final Set<String> topLevel;
    private final Set<String> external;
    private final Set<Path> landing;

    /**
     * @param root     the repository
     * @param external names of classes outside relaycheck and the JDK that a page may name (a library's, a
     *                 placeholder for the reader's own class), each checked by nothing
     * @param landing  pages (paths from the root) that a page may link before they exist: written on a branch that
     *                 has not landed yet
     */
    DocPages(Path root, Set<String> external, Set<String> landing) {
        this.root = root;
        this.external = external;
        this.landing = landing.stream().map(root::resolve).collect(Collectors.toSet());
        try {
            for (String text : javaSources(root)) {
                Matcher pkg = PACKAGE.matcher(text);
                Set<String> names = packages.computeIfAbsent(pkg.find() ? pkg.group(1) : "", k -> new HashSet<>());
                Matcher d = DECLARATION.matcher(text);
                while (d.find()) {
                    names.add(d.group(1));
                    declared.computeIfAbsent(d.group(1), k -> new ArrayList<>()).add(text);
                }
            }
            try (Stream<Path> top = Files.list(root)) {
                topLevel = top.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text of every .java file of the repository, build outputs and results left out. */
    private static List<String> javaSources(Path root) throws IOException {
        List<String> texts = new ArrayList<>();
        Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes a) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                return Set.of("target", ".git", "results", "node_modules").contains(name)
                        ? java.nio.file.FileVisitResult.SKIP_SUBTREE : java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes a) {
                if (file.toString().endsWith(".java")) {
                    texts.add(read(file));
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        return texts;
    }

    /** README.md, then every page of docs/, by name. */
    List<Path> pages() {
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    static List<Command> commands(String name, String markdown) {
        List<Command> commands = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        boolean inBlock = false;
        for (int i = 0; i < lines.length; i++) {
            if (FENCE.matcher(lines[i]).matches()) {
                inBlock = !inBlock;
                continue;
            }
            if (!inBlock) {
                continue;
            }
            int first = i;
            StringBuilder line = new StringBuilder(lines[i].strip());
            while (line.toString().endsWith("\\") && i + 1 < lines.length) {
                line.setLength(line.length() - 1);
                line.append(' ').append(lines[++i].strip());
            }
            String text = line.toString().replaceFirst("^\\$ ", "");
            if (text.startsWith("./relaycheck ") || text.equals("./relaycheck")) {
                Matcher exit = EXIT.matcher(text);
                commands.add(new Command(name, first + 1, text.replaceAll("\\s+", " "),
                        exit.find() ? Integer.parseInt(exit.group(1)) : 0));
            }
        }
        return commands;
    }

    /** Every name on the page that does not exist, one line each. */
    List<String> problems(String name, Path dir, String markdown) {
        List<String> problems = new ArrayList<>();
        for (Command c : commands(name, markdown)) {
            parseProblem(c.words(), true).ifPresent(p -> problems.add(c + ": " + p));
        }
        String prose = withoutCodeBlocks(markdown);
        Matcher inline = INLINE.matcher(prose);
        while (inline.find()) {
            String code = inline.group(1).strip();
            String where = name + ": `" + code + "`: ";
            if (code.startsWith("./relaycheck ") || code.startsWith("relaycheck ")) {
                parseProblem(ShellWords.split(code.replaceFirst("^(\\./)?relaycheck\\s+", "")), false)
                        .ifPresent(p -> problems.add(where + p));
            } else if (OPTION.matcher(code).lookingAt()) {
                Matcher o = OPTION.matcher(code);
                while (o.find()) {
                    if (!anyCommandHas(o.group())) {
                        problems.add(where + "no relaycheck command has the option " + o.group());
                    }
                }
            } else {
                missingName(code.replaceAll("\\(.*\\)$", "")).ifPresent(p -> problems.add(where + p));
            }
        }
        Matcher link = LINK.matcher(prose);
        while (link.find()) {
            String target = link.group(1);
            if (target.startsWith("http") || target.startsWith("#")) {
                continue;
            }
            Path file = dir.resolve(target.replaceAll("#.*", "")).normalize();
            if (!Files.exists(file) && !landing.contains(file)) {
                problems.add(name + ": the link " + target + " leads to no file");
            }
        }
        return problems;
    }

    /** What is wrong with running {@code relaycheck WORDS}: an unknown command or option, or (strict) any parse error. */
    static Optional<String> parseProblem(List<String> words, boolean strict) {
        CommandLine cli = CLI;
        if (strict) {
            try {
                cli.parseArgs(words.toArray(String[]::new));
                return Optional.empty();
            } catch (CommandLine.ParameterException e) {
                return Optional.of(e.getMessage());
            }
        }
        CommandLine command = cli;
        for (String w : words) {
            if (w.startsWith("-")) {
                String option = w.replaceAll("=.*", "");
                if (!option.startsWith("-D") && command.getCommandSpec().findOption(option) == null) {
                    return Optional.of("'" + command.getCommandSpec().qualifiedName() + "' has no option " + option);
                }
            } else if (command.getSubcommands().containsKey(w)) {
                command = command.getSubcommands().get(w);
            }
        }
        return Optional.empty();
    }

    private static boolean anyCommandHas(String option) {
        return anyCommandHas(CLI.getCommandSpec(), option);
    }

    private static boolean anyCommandHas(CommandSpec spec, String option) {
        return spec.findOption(option) != null
                || spec.subcommands().values().stream().anyMatch(c -> anyCommandHas(c.getCommandSpec(), option));
    }

    /** A class, a class's member or a repository path that does not exist; nothing for other code. */
    private Optional<String> missingName(String code) {
        if (code.contains(" ")) {
            return Optional.empty();
        }
        Matcher q = QUALIFIED.matcher(code);
        if (q.matches() && q.group(1).chars().anyMatch(Character::isLowerCase)) {
            String pkg = code.substring(0, q.start(1) - 1);
            String className = pkg + "." + q.group(1);
            if (jdk(className)) {
                return Optional.empty();
            }
            boolean found = packages.entrySet().stream().anyMatch(e -> (e.getKey().equals(pkg) || e.getKey().endsWith("." + pkg))
                    && e.getValue().contains(q.group(1)));
            return found ? missingMember(q.group(1), q.group(2))
                    : Optional.of("no class " + className + " in the repository");
        }
        if (q.matches()) {
            return Optional.empty(); // a property name such as relaycheck.NAME
        }
        Matcher t = TYPE.matcher(code);
        if (t.matches() && !external.contains(t.group(1))) {
            if (!declared(t.group(1)) && !jdk(t.group(1))) {
                return Optional.of("no class " + t.group(1) + " in the repository");
            }
            return declared(t.group(1)) ? missingMember(t.group(1), t.group(2)) : Optional.empty();
        }
        if (PATH.matcher(code).matches()) {
            return missingPath(code);
        }
        return Optional.empty();
    }

    /** Each member must be named in a file that declares the type (a nested type's members: in its outer file). */
    private Optional<String> missingMember(String type, String members) {
        for (String member : members.split("\\.")) {
            Pattern word = Pattern.compile("\\b" + Pattern.quote(member) + "\\b");
            if (!member.isEmpty() && declared.get(type).stream().noneMatch(f -> word.matcher(f).find())) {
                return Optional.of(type + " has no member " + member);
            }
        }
        return Optional.empty();
    }

    private boolean declared(String simpleName) {
        return declared.containsKey(simpleName);
    }

    private static boolean jdk(String name) {
        for (String p : name.contains(".") ? List.of("") : JDK_PACKAGES) {
            try {
                Class.forName(p + name, false, ClassLoader.getPlatformClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                // try the next package
            }
        }
        return false;
    }

    /** A path under a folder of the repository (not results/, not a build's target/) that is not there. */
    private Optional<String> missingPath(String path) {
        String first = path.replaceFirst("^\\./", "").split("/")[0];
        if (!topLevel.contains(first) || first.equals("results") || path.contains("target/") || path.equals("target")) {
            return Optional.empty();
        }
        if (path.contains("...")) {
            String[] ends = path.split("/\\.\\.\\./", 2);
            try (Stream<Path> files = Files.walk(root.resolve(ends[0]))) {
                return files.anyMatch(p -> p.toString().endsWith("/" + ends[1])) ? Optional.empty()
                        : Optional.of("no file " + path + " in the repository");
            } catch (IOException e) {
                return Optional.of("no folder " + ends[0] + " in the repository");
            }
        }
        return Files.exists(root.resolve(path)) ? Optional.empty() : Optional.of("no file " + path + " in the repository");
    }

    /** The prose, one paragraph a line (a code span may wrap within a paragraph), code blocks left out. */
    static String withoutCodeBlocks(String markdown) {
        StringBuilder b = new StringBuilder();
        boolean inBlock = false;
        for (String line : markdown.split("\n", -1)) {
            if (FENCE.matcher(line).matches()) {
                inBlock = !inBlock;
            } else if (!inBlock) {
                b.append(line.isBlank() ? "\n" : line.strip() + " ");
            }
        }
        return b.toString();
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
