package dev.teammemory.secrets.bench;

import dev.teammemory.secrets.Finding;
import dev.teammemory.secrets.Rule;
import dev.teammemory.secrets.SecretScanner;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prints the secret scanner's throughput on a generated corpus; a program, not a test.
 *
 * <p>Writes a deterministic corpus (seeded {@link Random}) of about 3,000 markdown and code files,
 * about 50 MB, with a few hundred planted synthetic tokens to {@code
 * secret-rules/target/bench-corpus/}, reads it back, and measures (a) the default rule set, (b)
 * every rule, and (c) the naive loop that runs every rule's {@code java.util.regex} over every file
 * — on a subset, extrapolated, because over the whole corpus it takes minutes.
 *
 * <p>Each figure is given twice: by wall clock, and by the CPU time of the scanning thread. On a
 * shared machine the second is the one to compare; it is what the scan costs, whatever else runs.
 *
 * <p>Run from the repository root:
 *
 * <pre>
 * ./mvnw -q -pl secret-rules test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.teammemory.secrets.bench.ScannerBenchmark
 * </pre>
 */
public final class ScannerBenchmark {

  private static final long SEED = 20_260_101L;
  private static final int FILES = 3_000;
  private static final long TARGET_BYTES = 50L * 1_000_000;
  private static final int PLANTED = 300;
  private static final int TIMED_ROUNDS = 3;
  private static final long NAIVE_BUDGET_NANOS = 30L * 1_000_000_000;
  private static final long NAIVE_MAX_BYTES = 4L * 1_000_000;

  private static final String BASE62 =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final String BASE64URL = BASE62 + "-_";
  private static final String BASE64 = BASE62 + "+/";
  private static final String HEX = "0123456789abcdef";
  private static final String BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

  private static final String[] WORDS =
      ("the a of to and in is for on with that by this be as are from it or at an use run "
              + "memory team sync server client daemon push pull entry key token secret password "
              + "api access auth credential config deploy build test release branch commit merge "
              + "review index recall session notes compact dream agent model prompt tool file "
              + "folder path watcher debounce batch checksum etag version conflict retry backoff "
              + "database schema migration query table column row cache queue worker thread lock "
              + "timeout request response header body status error warning log metric trace "
              + "linear time Asia task desk mask risk disk ask skip sketch widget acme project "
              + "repository organisation permission scope login logout rotate vault environment "
              + "variable placeholder example value default option flag feature rollout")
          .split(" ");

  private ScannerBenchmark() {}

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  public static void main(String[] args) throws IOException, URISyntaxException {
    Path classes =
        Path.of(ScannerBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path root = args.length > 0 ? Path.of(args[0]) : classes.resolveSibling("bench-corpus");
    Corpus corpus = Corpus.generate(root, new Random(SEED));
    System.out.printf(
        Locale.ROOT,
        "corpus: %,d files, %.1f MB (%s), %d planted tokens of %d kinds%n",
        corpus.files.size(),
        corpus.bytes / 1e6,
        root,
        corpus.planted.size(),
        Plant.KINDS.size());
    System.out.printf(
        Locale.ROOT,
        "rules: %d default, %d in all; %d timed rounds after one warm-up, best reported%n",
        SecretScanner.defaultRules().rules().size(),
        SecretScanner.allRules().rules().size(),
        TIMED_ROUNDS);
    System.out.printf(
        Locale.ROOT,
        "machine: %d cores, load average %.1f; %s %s%n%n",
        Runtime.getRuntime().availableProcessors(),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        System.getProperty("java.vm.name"),
        System.getProperty("java.version"));
    System.out.printf(Locale.ROOT, "%-44s %13s %13s%n", "", "CPU time", "wall clock");

    Result defaults = measure("(a) default rules", corpus, SecretScanner.defaultRules());
    Result all = measure("(b) all rules", corpus, SecretScanner.allRules());
    Naive naiveDefault = naive("(c) naive java.util.regex, default rules", corpus, true);
    Naive naiveAll = naive("(c) naive java.util.regex, all rules", corpus, false);

    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "(a) planted tokens found: %d of %d; other findings: %d%n",
        defaults.plantedFound,
        corpus.planted.size(),
        defaults.findings - defaults.plantedFound);
    System.out.printf(
        Locale.ROOT,
        "(b) planted tokens found: %d of %d; other findings: %d%n",
        all.plantedFound,
        corpus.planted.size(),
        all.findings - all.plantedFound);
    System.out.printf(
        Locale.ROOT,
        "(a) / naive default: %.0fx   (a) / naive all: %.0fx   (b) / naive all: %.0fx%n",
        defaults.megabytesPerSecond / naiveDefault.megabytesPerSecond,
        defaults.megabytesPerSecond / naiveAll.megabytesPerSecond,
        all.megabytesPerSecond / naiveAll.megabytesPerSecond);
  }

  private record Result(double megabytesPerSecond, int findings, int plantedFound) {}

  private record Naive(double megabytesPerSecond) {}

  /** Wall-clock and thread CPU nanoseconds of one run. */
  private record Timing(long wall, long cpu) {
    static Timing since(long wallStart, long cpuStart) {
      return new Timing(
          System.nanoTime() - wallStart, THREADS.getCurrentThreadCpuTime() - cpuStart);
    }
  }

  private static Result measure(String name, Corpus corpus, SecretScanner scanner) {
    List<List<Finding>> findings = scanAll(corpus, scanner);
    long bestWall = Long.MAX_VALUE;
    long bestCpu = Long.MAX_VALUE;
    for (int round = 0; round < TIMED_ROUNDS; round++) {
      long wallStart = System.nanoTime();
      long cpuStart = THREADS.getCurrentThreadCpuTime();
      findings = scanAll(corpus, scanner);
      Timing timing = Timing.since(wallStart, cpuStart);
      bestWall = Math.min(bestWall, timing.wall());
      bestCpu = Math.min(bestCpu, timing.cpu());
    }
    int total = findings.stream().mapToInt(List::size).sum();
    int found = 0;
    for (Planted planted : corpus.planted) {
      boolean hit =
          findings.get(planted.file).stream()
              .anyMatch(
                  finding -> finding.line() == planted.line && finding.column() == planted.column);
      found += hit ? 1 : 0;
    }
    double megabytesPerSecond = corpus.bytes / 1e6 / (bestCpu / 1e9);
    System.out.printf(
        Locale.ROOT,
        "%-44s %8.1f MB/s %8.1f MB/s  (%.2f s CPU)  %,d findings%n",
        name,
        megabytesPerSecond,
        corpus.bytes / 1e6 / (bestWall / 1e9),
        bestCpu / 1e9,
        total);
    return new Result(megabytesPerSecond, total, found);
  }

  private static List<List<Finding>> scanAll(Corpus corpus, SecretScanner scanner) {
    List<List<Finding>> findings = new ArrayList<>(corpus.files.size());
    for (String file : corpus.files) {
      findings.add(scanner.scan(file));
    }
    return findings;
  }

  /**
   * Every rule's regex through {@code java.util.regex} over every file, as the reference client
   * does: runs on files in order until the time or size budget is spent, then extrapolates.
   */
  private static Naive naive(String name, Corpus corpus, boolean defaultOnly) {
    List<Pattern> patterns = new ArrayList<>();
    for (Rule rule : SecretScanner.allRules().rules()) {
      if (!defaultOnly || rule.inDefaultSet()) {
        patterns.add(Pattern.compile(rule.regex()));
      }
    }
    naiveRun(corpus, patterns, 20, Long.MAX_VALUE); // warm-up
    long cpuStart = THREADS.getCurrentThreadCpuTime();
    long[] measured = naiveRun(corpus, patterns, Integer.MAX_VALUE, NAIVE_BUDGET_NANOS);
    long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
    long bytes = measured[0];
    long nanos = measured[1];
    int files = (int) measured[2];
    double megabytesPerSecond = bytes / 1e6 / (cpu / 1e9);
    System.out.printf(
        Locale.ROOT,
        "%-44s %8.3f MB/s %8.3f MB/s  (%.1f s CPU on %d files, %.1f MB; whole corpus"
            + " extrapolated: %.0f s CPU)%n",
        name,
        megabytesPerSecond,
        bytes / 1e6 / (nanos / 1e9),
        cpu / 1e9,
        files,
        bytes / 1e6,
        corpus.bytes / 1e6 / megabytesPerSecond);
    return new Naive(megabytesPerSecond);
  }

  /** Returns {bytes scanned, nanoseconds, files}. */
  private static long[] naiveRun(Corpus corpus, List<Pattern> patterns, int maxFiles, long budget) {
    long bytes = 0;
    long start = System.nanoTime();
    int files = 0;
    long matches = 0;
    for (String file : corpus.files) {
      if (files >= maxFiles
          || System.nanoTime() - start >= budget
          || bytes >= NAIVE_MAX_BYTES && maxFiles == Integer.MAX_VALUE) {
        break;
      }
      for (Pattern pattern : patterns) {
        Matcher matcher = pattern.matcher(file);
        while (matcher.find()) {
          matches++;
        }
      }
      bytes += file.getBytes(StandardCharsets.UTF_8).length;
      files++;
    }
    return new long[] {bytes, System.nanoTime() - start, files, matches};
  }

  /** Where a token was planted: file index, 1-based line and column. */
  private record Planted(int file, int line, int column, String kind) {}

  /** A kind of synthetic token the default rules must find. */
  private record Plant(String kind, Function<Random, String> token) {

    static final List<Plant> KINDS =
        List.of(
            new Plant("github-pat", random -> "ghp_" + text(random, BASE62, 36)),
            new Plant(
                "github-fine-grained-pat",
                random ->
                    "github_pat_" + text(random, BASE62, 22) + "_" + text(random, BASE62, 59)),
            new Plant("github-app-token", random -> "ghs_" + text(random, BASE62, 36)),
            new Plant("github-oauth", random -> "gho_" + text(random, BASE62, 36)),
            new Plant("gitlab-pat", random -> "glpat-" + text(random, BASE64URL, 20)),
            new Plant("aws-access-token", random -> "AKIA" + text(random, BASE32, 16)),
            new Plant("gcp-api-key", random -> "AIza" + text(random, BASE64URL, 35)),
            new Plant(
                "anthropic-api-key",
                random -> "sk-ant-api03-" + text(random, BASE64URL, 93) + "AA"),
            new Plant(
                "openai-api-key",
                random ->
                    "sk-proj-"
                        + text(random, BASE64URL, 74)
                        + "T3BlbkFJ"
                        + text(random, BASE64URL, 74)),
            new Plant(
                "huggingface-access-token",
                random -> "hf_" + text(random, BASE62.substring(0, 52), 34)),
            new Plant(
                "slack-bot-token",
                random ->
                    "xoxb-"
                        + text(random, "0123456789", 12)
                        + "-"
                        + text(random, "0123456789", 13)
                        + "-"
                        + text(random, BASE62, 24)),
            new Plant(
                "slack-webhook-url",
                random ->
                    "https://hooks.slack.com/services/T"
                        + text(random, BASE32, 8)
                        + "/B"
                        + text(random, BASE32, 8)
                        + "/"
                        + text(random, BASE62, 24)),
            new Plant("stripe-access-token", random -> "sk_live_" + text(random, BASE62, 99)),
            new Plant(
                "sendgrid-api-token",
                random -> "SG." + text(random, BASE64URL, 22) + "." + text(random, BASE64URL, 43)),
            new Plant("npm-access-token", random -> "npm_" + text(random, BASE62, 36)),
            new Plant("twilio-api-key", random -> "SK" + text(random, HEX, 32)),
            new Plant("databricks-api-token", random -> "dapi" + text(random, HEX, 32)),
            new Plant("digitalocean-pat", random -> "dop_v1_" + text(random, HEX, 64)),
            new Plant("pulumi-api-token", random -> "pul-" + text(random, HEX, 40)),
            new Plant(
                "grafana-service-account-token",
                random -> "glsa_" + text(random, BASE62, 32) + "_" + text(random, HEX, 8)),
            new Plant("sentry-user-token", random -> "sntryu_" + text(random, HEX, 64)),
            new Plant("shopify-access-token", random -> "shpat_" + text(random, HEX, 32)),
            new Plant(
                "postman-api-token",
                random -> "PMAK-" + text(random, HEX, 24) + "-" + text(random, HEX, 34)),
            new Plant(
                "pypi-upload-token",
                random -> "pypi-AgEIcHlwaS5vcmc" + text(random, BASE64URL, 120)),
            new Plant(
                "private-key",
                random ->
                    "-----BEGIN RSA PRIVATE KEY-----\n"
                        + text(random, BASE64, 64)
                        + "\n"
                        + text(random, BASE64, 64)
                        + "\n"
                        + text(random, BASE64, 64)
                        + "\n-----END RSA PRIVATE KEY-----"));
  }

  /** The generated files, in memory, and where the tokens were planted. */
  private static final class Corpus {
    final List<String> files = new ArrayList<>();
    final List<Planted> planted = new ArrayList<>();
    long bytes;

    static Corpus generate(Path root, Random random) throws IOException {
      List<List<String>> lines = new ArrayList<>();
      long perFile = TARGET_BYTES / FILES;
      for (int i = 0; i < FILES; i++) {
        long size = perFile / 2 + (long) (random.nextDouble() * perFile);
        lines.add(i % 2 == 0 ? markdown(random, size) : code(random, size));
      }
      Corpus corpus = new Corpus();
      List<String> tokens = new ArrayList<>();
      for (int p = 0; p < PLANTED; p++) {
        Plant plant = Plant.KINDS.get(p % Plant.KINDS.size());
        int file = random.nextInt(FILES);
        List<String> fileLines = lines.get(file);
        int line = random.nextInt(fileLines.size());
        String token = plant.token().apply(random);
        String prefix =
            plant.kind().equals("private-key")
                ? ""
                : switch (random.nextInt(4)) {
                  case 0 ->
                      "export " + plant.kind().toUpperCase(Locale.ROOT).replace('-', '_') + "=";
                  case 1 -> "  \"" + word(random) + "Token\": \"";
                  case 2 -> "Rotate `";
                  default -> word(random) + ": ";
                };
        String suffix = prefix.endsWith("\"") ? "\"," : prefix.endsWith("`") ? "` after use." : "";
        fileLines.add(line, prefix + token + suffix);
        tokens.add(token);
        corpus.planted.add(new Planted(file, 0, 0, plant.kind()));
      }
      Files.createDirectories(root);
      for (int i = 0; i < FILES; i++) {
        String text = String.join("\n", lines.get(i)) + "\n";
        corpus.files.add(text);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        corpus.bytes += bytes.length;
        Files.write(
            root.resolve(String.format(Locale.ROOT, "file-%04d.%s", i, i % 2 == 0 ? "md" : "txt")),
            bytes);
      }
      List<String> readBack = new ArrayList<>();
      for (int i = 0; i < FILES; i++) {
        readBack.add(
            Files.readString(
                root.resolve(
                    String.format(Locale.ROOT, "file-%04d.%s", i, i % 2 == 0 ? "md" : "txt"))));
      }
      corpus.files.clear();
      corpus.files.addAll(readBack);
      corpus.locatePlanted(tokens);
      return corpus;
    }

    /** Where each planted token ended up, found by its text in its file. */
    private void locatePlanted(List<String> tokens) {
      List<Planted> located = new ArrayList<>();
      for (int p = 0; p < planted.size(); p++) {
        Planted plant = planted.get(p);
        String text = files.get(plant.file);
        int offset = text.indexOf(tokens.get(p));
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset; i++) {
          if (text.charAt(i) == '\n') {
            line++;
            lineStart = i + 1;
          }
        }
        located.add(new Planted(plant.file, line, offset - lineStart + 1, plant.kind));
      }
      planted.clear();
      planted.addAll(located);
    }
  }

  private static List<String> markdown(Random random, long size) {
    List<String> lines = new ArrayList<>();
    long written = 0;
    lines.add("# " + sentence(random, 4));
    while (written < size) {
      String line =
          switch (random.nextInt(12)) {
            case 0 -> "## " + sentence(random, 3);
            case 1, 2, 3, 4 -> paragraph(random);
            case 5 -> "- " + sentence(random, 8) + " (`" + identifier(random) + "`)";
            case 6 ->
                "| "
                    + word(random)
                    + " | "
                    + UUID.nameUUIDFromBytes(text(random, HEX, 8).getBytes(StandardCharsets.UTF_8))
                    + " | "
                    + text(random, HEX, 40)
                    + " |";
            case 7 ->
                "See ["
                    + word(random)
                    + "](https://example.org/"
                    + word(random)
                    + "/"
                    + text(random, HEX, 7)
                    + ").";
            case 8 -> "```\n" + String.join("\n", codeLines(random, 6)) + "\n```";
            case 9 ->
                random.nextInt(40) == 0
                    ? "![chart](data:image/png;base64,"
                        + Base64.getEncoder()
                            .encodeToString(bytes(random, 6_000 + random.nextInt(30_000)))
                        + ")"
                    : "> " + sentence(random, 12) + " \u2014 caf\u00e9 \uD83D\uDE80";
            case 10 ->
                "Set `"
                    + identifier(random).toUpperCase(Locale.ROOT)
                    + "_TOKEN=<your-token>` or `${"
                    + identifier(random).toUpperCase(Locale.ROOT)
                    + "}`.";
            default -> "";
          };
      lines.add(line);
      written += line.length() + 1;
    }
    return lines;
  }

  private static List<String> code(Random random, long size) {
    List<String> lines = new ArrayList<>();
    long written = 0;
    while (written < size) {
      for (String line : codeLines(random, 20)) {
        lines.add(line);
        written += line.length() + 1;
      }
    }
    return lines;
  }

  private static List<String> codeLines(Random random, int count) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = identifier(random);
      lines.add(
          switch (random.nextInt(16)) {
            case 0 ->
                "    String "
                    + name
                    + " = config.get(\""
                    + word(random)
                    + "."
                    + word(random)
                    + "\");";
            case 1 ->
                "    private static final String "
                    + name.toUpperCase(Locale.ROOT)
                    + "_KEY = \""
                    + word(random)
                    + "-"
                    + word(random)
                    + "\";";
            case 2 ->
                "    if ("
                    + name
                    + " == null) { throw new IllegalArgumentException(\""
                    + word(random)
                    + " is null\"); }";
            case 3 -> name + "_token = os.environ[\"" + name.toUpperCase(Locale.ROOT) + "_TOKEN\"]";
            case 4 -> "  api_key: ${" + name.toUpperCase(Locale.ROOT) + "_API_KEY}";
            case 5 -> "    // " + sentence(random, 10);
            case 6 ->
                "    const res = await fetch(`https://api.example.org/"
                    + word(random)
                    + "/"
                    + UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8))
                    + "`);";
            case 7 -> "  \"checksum\": \"sha256:" + text(random, HEX, 64) + "\",";
            case 8 ->
                "    this.password = requireNonNull("
                    + name
                    + ".password(), \"password is null\");";
            case 9 -> "    String authHeader = \"Bearer \" + " + name + "Token;";
            case 10 -> "  accessKeyId: !Ref " + name;
            case 11 ->
                "    TASK_"
                    + random.nextInt(99)
                    + " = Task(\""
                    + word(random)
                    + "\", mask=MASK_"
                    + random.nextInt(9)
                    + ", disk=DISK_SKU)";
            case 12 -> "func (s *" + name + ") Handle(ctx context.Context, key string) error {";
            case 13 -> "    secretName := \"" + word(random) + "/" + word(random) + "/api-key\"";
            case 14 ->
                "  \""
                    + name
                    + "Version\": \""
                    + random.nextInt(9)
                    + "."
                    + random.nextInt(20)
                    + "."
                    + random.nextInt(30)
                    + "\",";
            default ->
                "    return "
                    + name
                    + "."
                    + word(random)
                    + "("
                    + word(random)
                    + ", "
                    + random.nextInt(1000)
                    + ");";
          });
    }
    return lines;
  }

  private static String paragraph(Random random) {
    StringBuilder paragraph = new StringBuilder();
    int sentences = 2 + random.nextInt(5);
    for (int i = 0; i < sentences; i++) {
      paragraph.append(sentence(random, 6 + random.nextInt(14))).append(' ');
    }
    return paragraph.toString().strip();
  }

  private static String sentence(Random random, int words) {
    StringBuilder sentence = new StringBuilder();
    for (int i = 0; i < words; i++) {
      String word = word(random);
      sentence.append(i == 0 ? Character.toUpperCase(word.charAt(0)) + word.substring(1) : word);
      sentence.append(i == words - 1 ? "." : " ");
    }
    return sentence.toString();
  }

  private static String identifier(Random random) {
    String second = word(random);
    return word(random) + Character.toUpperCase(second.charAt(0)) + second.substring(1);
  }

  private static String word(Random random) {
    return WORDS[random.nextInt(WORDS.length)];
  }

  private static String text(Random random, String alphabet, int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
