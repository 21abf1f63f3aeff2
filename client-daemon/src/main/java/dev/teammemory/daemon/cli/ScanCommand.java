package dev.teammemory.daemon.cli;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.secrets.Finding;
import dev.teammemory.secrets.SecretScanner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tmem scan [--format text|json] PATH...}: secret-scans files and folders with the rules
 * that guard every push. Exit 0 when clean, 1 when anything is found, 2 on an error. It prints
 * where a secret is, never the secret. These are a person's own files, so a {@code gitleaks:allow}
 * comment is honoured here: its line's findings are listed as allowed and fail nothing (the push
 * guard and the server ignore the comment).
 */
@Command(
    name = "scan",
    mixinStandardHelpOptions = true,
    description = {
      "Scan files and folders for secrets with the rules that guard every push. Folders are walked"
          + " without following symbolic links, skipping .git folders and binary files.",
      "Prints path:line:column: rule-id (label) for each secret, never the secret itself.",
      "A secret on a line carrying the comment gitleaks:allow is listed as allowed and does not"
          + " fail the scan; the comment does not exempt team memory, which is guarded without it.",
      "Exit codes: 0 clean, 1 secrets found, 2 error."
    })
public final class ScanCommand implements Callable<Integer> {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int BINARY_PROBE = 8_000;
  private static final int WINDOW_CHARACTERS = 1 << 20;
  private static final int OVERLAP_LINES = 64;
  private static final int OVERLAP_CHARACTERS = 64 * 1024;

  /** {@code --format}: text for people, JSON for scripts. */
  enum Format {
    text,
    json
  }

  /** One finding in one file, as the JSON output carries it. */
  @JsonPropertyOrder({"path", "line", "column", "ruleId", "label", "fingerprint", "allowed"})
  record Hit(
      String path,
      int line,
      int column,
      String ruleId,
      String label,
      String fingerprint,
      boolean allowed) {
    static Hit of(Path path, Finding finding, int lineOffset) {
      return new Hit(
          path.toString(),
          finding.line() + lineOffset,
          finding.column(),
          finding.ruleId(),
          finding.label(),
          finding.fingerprint(),
          finding.allowed());
    }
  }

  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "PATH", description = "Files and folders to scan.")
  List<Path> paths;

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "text or json (default: ${DEFAULT-VALUE}).")
  Format format;

  @Option(
      names = "--all-rules",
      description =
          "Also run the keyword-and-context rules and the generic keyword-and-entropy rule: more"
              + " findings, and more false ones.")
  boolean allRules;

  @Override
  public Integer call() throws IOException {
    for (Path path : paths) {
      if (!Files.exists(path)) {
        throw UserError.usage(
            "cannot scan " + path + ": no such file or folder; give the files or folders to scan");
      }
    }
    SecretScanner scanner =
        (allRules ? SecretScanner.allRules() : SecretScanner.defaultRules())
            .honouringAllowComments();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<String> errors = new ArrayList<>();
    List<Hit> hits = new ArrayList<>();
    int filesWithSecrets = 0;
    for (Path file : files(errors)) {
      try {
        if (isBinary(TextFiles.headBytes(file, BINARY_PROBE))) {
          continue;
        }
        List<Hit> found = scan(scanner, file);
        hits.addAll(found);
        filesWithSecrets += found.stream().anyMatch(hit -> !hit.allowed()) ? 1 : 0;
      } catch (IOException e) {
        errors.add("cannot read " + file + ": " + FailureWords.describe(e));
      }
    }
    if (format == Format.json) {
      out.println(JSON.writeValueAsString(hits));
    } else {
      for (Hit hit : hits) {
        out.println(
            hit.path()
                + ":"
                + hit.line()
                + ":"
                + hit.column()
                + ": "
                + hit.ruleId()
                + " ("
                + hit.label()
                + ")"
                + (hit.allowed() ? ", allowed by a gitleaks:allow comment" : ""));
      }
    }
    out.flush();
    errors.forEach(error -> err.println("tmem: " + error));
    long secrets = hits.stream().filter(hit -> !hit.allowed()).count();
    if (secrets > 0) {
      err.println(
          "tmem: found "
              + count(secrets, "secret")
              + " in "
              + count(filesWithSecrets, "file")
              + "; remove them (rotate any that were real), or mark a line that holds none with"
              + " a gitleaks:allow comment");
    }
    if (secrets < hits.size()) {
      err.println(
          "tmem: "
              + count(hits.size() - secrets, "finding")
              + " allowed by gitleaks:allow comments; such a file is still not synced to team"
              + " memory, where the comment exempts nothing");
    }
    err.flush();
    if (!errors.isEmpty()) {
      return ExitCode.USAGE;
    }
    return secrets == 0 ? ExitCode.OK : ExitCode.PROBLEM;
  }

  /**
   * Scans one file as a stream of windows of whole lines, so a file of any size takes the same
   * memory. Each window repeats the last lines of the one before, so a secret that spans lines (a
   * private key) is found even where a window ends; a finding seen twice is reported once.
   */
  private static List<Hit> scan(SecretScanner scanner, Path file) throws IOException {
    Set<Hit> hits = new LinkedHashSet<>();
    try (Reader reader = TextFiles.reader(file)) {
      char[] buffer = new char[WINDOW_CHARACTERS];
      StringBuilder window = new StringBuilder();
      int firstLine = 1;
      int carriedLength = 0;
      boolean ended = false;
      while (!ended) {
        while (window.length() < WINDOW_CHARACTERS) {
          int read = reader.read(buffer, 0, WINDOW_CHARACTERS - window.length());
          if (read < 0) {
            ended = true;
            break;
          }
          window.append(buffer, 0, read);
        }
        int end = window.length();
        if (!ended) {
          int lastNewline = window.lastIndexOf("\n");
          // A line longer than a window is cut where the window ends.
          end = lastNewline + 1 > carriedLength ? lastNewline + 1 : window.length();
        }
        String text = window.substring(0, end);
        for (Finding finding : scanner.scan(text)) {
          hits.add(Hit.of(file, finding, firstLine - 1));
        }
        if (ended) {
          break;
        }
        int carried = carriedFrom(text);
        if (carried <= carriedLength) {
          // Repeating those lines again would not move on: nothing is carried this time.
          carried = text.length();
        }
        firstLine += lines(text.substring(0, carried));
        window.delete(0, carried);
        carriedLength = text.length() - carried;
      }
    }
    return List.copyOf(hits);
  }

  /** Where the lines repeated in the next window start: the last few lines, at most 64 KiB. */
  private static int carriedFrom(String text) {
    int from = text.length();
    for (int line = 0; line < OVERLAP_LINES && from > 0; line++) {
      int previous = text.lastIndexOf('\n', from - 2);
      if (previous < 0 || text.length() - (previous + 1) > OVERLAP_CHARACTERS) {
        break;
      }
      from = previous + 1;
    }
    return from == text.length() ? text.length() : from;
  }

  private static int lines(String text) {
    int lines = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        lines++;
      }
    }
    return lines;
  }

  /** The regular files under the paths, each root's files in path order. */
  private List<Path> files(List<String> errors) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path root : paths) {
      if (!Files.isDirectory(root)) {
        files.add(root);
        continue;
      }
      List<Path> found = new ArrayList<>();
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(
                Path directory, BasicFileAttributes attributes) {
              boolean git =
                  !directory.equals(root) && directory.getFileName().toString().equals(".git");
              return git ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isRegularFile()) {
                found.add(file);
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              errors.add("cannot read " + file + ": " + FailureWords.describe(e));
              return FileVisitResult.CONTINUE;
            }
          });
      found.sort(Comparator.comparing(Path::toString));
      files.addAll(found);
    }
    return files;
  }

  /** Git's test: a NUL byte near the start means binary. */
  private static boolean isBinary(byte[] bytes) {
    for (int i = 0, n = Math.min(bytes.length, BINARY_PROBE); i < n; i++) {
      if (bytes[i] == 0) {
        return true;
      }
    }
    return false;
  }

  private static String count(long number, String noun) {
    return number + " " + noun + (number == 1 ? "" : "s");
  }
}
