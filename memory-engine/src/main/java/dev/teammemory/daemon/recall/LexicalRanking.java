package dev.teammemory.daemon.recall;

import dev.teammemory.daemon.memory.MemoryHeader;
import dev.teammemory.daemon.memory.MemoryType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Picks relevant memories without a model: BM25F over what a model selector would see of each file
 * (its name, description, type and path), with field weights, light stemming, a few common
 * abbreviations, and prefix matches ({@code auth} finds {@code authentication}) at a discount. Like
 * the model it stands in for it is selective: only memories scoring within reach of the best are
 * returned, and reference notes about a tool in active use are left out unless they warn.
 */
final class LexicalRanking {

  private static final double NAME_WEIGHT = 3.0;
  private static final double DESCRIPTION_WEIGHT = 2.0;
  private static final double PATH_WEIGHT = 1.5;
  private static final double TYPE_WEIGHT = 0.5;
  private static final double K1 = 1.2;
  private static final double B = 0.75;
  private static final double PREFIX_MATCH = 0.6;
  private static final int MIN_PREFIX = 4;

  /** Memories scoring below this share of the best one are noise next to it. */
  private static final double RELATIVE_CUTOFF = 0.4;

  private static final Pattern CAMEL_BOUNDARY = Pattern.compile("(?<=[a-z])(?=[A-Z])");
  private static final Pattern NON_WORD = Pattern.compile("[^a-z0-9]+");
  private static final String IDEOGRAPHIC = "\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}\\p{IsHangul}";

  /** A run of ideographic characters, or a run of other letters and digits. */
  private static final Pattern RUN =
      Pattern.compile("[" + IDEOGRAPHIC + "]+|[\\p{L}\\p{N}&&[^" + IDEOGRAPHIC + "]]+");

  /** Pairs too common in Chinese questions to say what one is about. */
  private static final Set<String> IDEOGRAPHIC_STOP_PAIRS =
      Set.of(
          "什么", "为什", "怎么", "怎样", "这个", "那个", "一下", "我们", "你们", "可以", "是不", "不是", "的时", "时候", "如何",
          "哪里", "是否", "一个", "没有", "帮我", "请帮", "一些");

  private static final Set<String> STOPWORDS =
      Set.of(
          ("a an the and or but if then else of to in on at by for with about as from into "
                  + "onto over under is are was were be been being am it its this that these those "
                  + "there here i me my we our us you your he she they them their what which who "
                  + "whom whose when where why how do does did done doing can could would should "
                  + "will shall may might must have has had not no so too very just also all some "
                  + "please help let lets want need get got make made now again up down out md "
                  + "thing things something way use using used like")
              .split(" "));

  /** Abbreviations mapped to the word they stand for, applied to query and memories alike. */
  private static final Map<String, String> CANONICAL =
      Map.ofEntries(
          Map.entry("db", "database"),
          Map.entry("dbs", "database"),
          Map.entry("env", "environment"),
          Map.entry("envs", "environment"),
          Map.entry("k8s", "kubernetes"),
          Map.entry("kube", "kubernetes"),
          Map.entry("deps", "dependency"),
          Map.entry("dep", "dependency"),
          Map.entry("prod", "production"),
          Map.entry("dev", "development"),
          Map.entry("infra", "infrastructure"),
          Map.entry("js", "javascript"),
          Map.entry("ts", "typescript"),
          Map.entry("py", "python"),
          Map.entry("msg", "message"),
          Map.entry("err", "error"),
          Map.entry("perf", "performance"),
          Map.entry("docs", "documentation"),
          Map.entry("doc", "documentation"),
          Map.entry("creds", "credential"),
          Map.entry("pw", "password"),
          Map.entry("pwd", "password"));

  private static final List<String> WARNING_WORDS =
      List.of(
          "warning",
          "warn",
          "gotcha",
          "caveat",
          "pitfall",
          "known issue",
          "bug",
          "broken",
          "careful",
          "beware",
          "avoid",
          "never",
          "don't",
          "do not",
          "fails",
          "failure",
          "breaks",
          "trap");

  private LexicalRanking() {}

  /** The relevant candidates, best first, at most {@code limit}. */
  static List<MemoryHeader> rank(
      String query, List<MemoryHeader> candidates, List<String> recentTools, int limit) {
    Set<String> queryTerms = new LinkedHashSet<>(terms(query));
    if (queryTerms.isEmpty() || candidates.isEmpty()) {
      return List.of();
    }
    List<Document> documents = new ArrayList<>();
    for (MemoryHeader candidate : candidates) {
      if (!isUsageReferenceForActiveTool(candidate, recentTools)) {
        documents.add(Document.of(candidate));
      }
    }
    if (documents.isEmpty()) {
      return List.of();
    }
    Map<String, Integer> documentFrequency = new HashMap<>();
    double totalLength = 0;
    for (Document document : documents) {
      totalLength += document.length();
      for (String term : document.frequencies().keySet()) {
        documentFrequency.merge(term, 1, Integer::sum);
      }
    }
    double averageLength = Math.max(totalLength / documents.size(), 1e-9);
    int count = documents.size();

    List<Scored> scored = new ArrayList<>();
    for (Document document : documents) {
      double score = 0;
      int matched = 0;
      for (String queryTerm : queryTerms) {
        double best = 0;
        for (Map.Entry<String, Double> entry : document.frequencies().entrySet()) {
          double match = match(queryTerm, entry.getKey());
          if (match == 0) {
            continue;
          }
          int frequency = documentFrequency.get(entry.getKey());
          double idf = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
          double tf = entry.getValue();
          double saturated =
              tf * (K1 + 1) / (tf + K1 * (1 - B + B * document.length() / averageLength));
          best = Math.max(best, match * idf * saturated);
        }
        score += best;
        matched += best > 0 ? 1 : 0;
      }
      if (score > 0) {
        // Coordination: a memory that matches more of the query's words is about more of it.
        scored.add(new Scored(document.header(), score * matched / queryTerms.size()));
      }
    }
    if (scored.isEmpty()) {
      return List.of();
    }
    // Stable: among equal scores the newer memory (earlier in the candidates) comes first.
    scored.sort(Comparator.comparingDouble(Scored::score).reversed());
    double cutoff = scored.getFirst().score() * RELATIVE_CUTOFF;
    return scored.stream()
        .filter(entry -> entry.score() >= cutoff)
        .limit(limit)
        .map(Scored::header)
        .toList();
  }

  private record Scored(MemoryHeader header, double score) {}

  private record Document(MemoryHeader header, Map<String, Double> frequencies, double length) {
    static Document of(MemoryHeader header) {
      Map<String, Double> frequencies = new HashMap<>();
      double length = 0;
      length += add(frequencies, terms(header.name().orElse("")), NAME_WEIGHT);
      length += add(frequencies, terms(header.description().orElse("")), DESCRIPTION_WEIGHT);
      String path =
          header.filename().endsWith(".md")
              ? header.filename().substring(0, header.filename().length() - 3)
              : header.filename();
      length += add(frequencies, terms(path), PATH_WEIGHT);
      length +=
          add(frequencies, terms(header.type().map(MemoryType::wireName).orElse("")), TYPE_WEIGHT);
      return new Document(header, frequencies, length);
    }

    private static double add(Map<String, Double> frequencies, List<String> terms, double weight) {
      for (String term : terms) {
        frequencies.merge(term, weight, Double::sum);
      }
      return terms.size() * weight;
    }
  }

  private static double match(String queryTerm, String documentTerm) {
    if (queryTerm.equals(documentTerm)) {
      return 1;
    }
    String shorter = queryTerm.length() <= documentTerm.length() ? queryTerm : documentTerm;
    String longer = shorter == queryTerm ? documentTerm : queryTerm;
    return shorter.length() >= MIN_PREFIX && longer.startsWith(shorter) ? PREFIX_MATCH : 0;
  }

  /**
   * Lower-case words with camelCase and punctuation split, stop words dropped, lightly stemmed.
   * Chinese, Japanese and Korean are written without spaces between words, so their runs become
   * overlapping pairs of characters ({@code 发版之前} → 发版, 版之, 之前), which match across word boundaries
   * without a dictionary.
   */
  static List<String> terms(String text) {
    List<String> terms = new ArrayList<>();
    Matcher runs = RUN.matcher(text);
    while (runs.find()) {
      String raw = runs.group();
      if (isIdeographic(raw.codePointAt(0))) {
        ideographicPairs(raw, terms);
        continue;
      }
      String whole = raw.toLowerCase(Locale.ROOT);
      List<String> words =
          CANONICAL.containsKey(whole)
              ? List.of(whole)
              : List.of(
                  CAMEL_BOUNDARY.matcher(raw).replaceAll(" ").toLowerCase(Locale.ROOT).split(" "));
      for (String word : words) {
        if (word.isEmpty() || STOPWORDS.contains(word)) {
          continue;
        }
        String stemmed = stem(CANONICAL.getOrDefault(word, word));
        if (stemmed.length() >= 2 || Character.isDigit(stemmed.charAt(0))) {
          terms.add(stemmed);
        }
      }
    }
    return terms;
  }

  private static void ideographicPairs(String run, List<String> terms) {
    int[] characters = run.codePoints().toArray();
    if (characters.length == 1) {
      terms.add(run);
      return;
    }
    for (int i = 0; i + 1 < characters.length; i++) {
      String pair = new String(characters, i, 2);
      if (!IDEOGRAPHIC_STOP_PAIRS.contains(pair)) {
        terms.add(pair);
      }
    }
  }

  /** A character of the Chinese, Japanese or Korean scripts. */
  static boolean isIdeographic(int codePoint) {
    Character.UnicodeScript script = Character.UnicodeScript.of(codePoint);
    return script == Character.UnicodeScript.HAN
        || script == Character.UnicodeScript.HIRAGANA
        || script == Character.UnicodeScript.KATAKANA
        || script == Character.UnicodeScript.HANGUL;
  }

  /** Strips common English inflections so that "tests", "testing" and "tested" meet. */
  static String stem(String word) {
    if (word.length() <= 3 || !Character.isLetter(word.charAt(word.length() - 1))) {
      return word;
    }
    if (word.endsWith("ies") && word.length() > 4) {
      return word.substring(0, word.length() - 3) + "y";
    }
    if (word.endsWith("sses")) {
      return word.substring(0, word.length() - 2);
    }
    if (word.endsWith("ing")
        && word.length() >= 6
        && hasVowel(word.substring(0, word.length() - 3))) {
      return undouble(word.substring(0, word.length() - 3));
    }
    if (word.endsWith("ed")
        && !word.endsWith("eed")
        && word.length() >= 5
        && hasVowel(word.substring(0, word.length() - 2))) {
      return undouble(word.substring(0, word.length() - 2));
    }
    if (word.endsWith("es")
        && (word.endsWith("ches")
            || word.endsWith("shes")
            || word.endsWith("xes")
            || word.endsWith("zes"))) {
      return word.substring(0, word.length() - 2);
    }
    if (word.endsWith("s")
        && !word.endsWith("ss")
        && !word.endsWith("us")
        && !word.endsWith("is")) {
      return word.substring(0, word.length() - 1);
    }
    return word;
  }

  private static boolean hasVowel(String stem) {
    for (int i = 0; i < stem.length(); i++) {
      if ("aeiouy".indexOf(stem.charAt(i)) >= 0) {
        return true;
      }
    }
    return false;
  }

  private static String undouble(String stem) {
    int n = stem.length();
    if (n >= 3
        && stem.charAt(n - 1) == stem.charAt(n - 2)
        && "lsz".indexOf(stem.charAt(n - 1)) < 0) {
      return stem.substring(0, n - 1);
    }
    return stem;
  }

  /**
   * The reference's selector skips usage notes for a tool the agent is already using successfully
   * (the conversation shows how) but keeps warnings about it, which matter most in use.
   */
  static boolean isUsageReferenceForActiveTool(MemoryHeader header, List<String> recentTools) {
    if (recentTools.isEmpty() || header.type().filter(MemoryType.REFERENCE::equals).isEmpty()) {
      return false;
    }
    String text =
        " "
            + NON_WORD
                .matcher(
                    (header.name().orElse("")
                            + " "
                            + header.description().orElse("")
                            + " "
                            + header.filename())
                        .toLowerCase(Locale.ROOT))
                .replaceAll(" ")
            + " ";
    String raw =
        (header.name().orElse("") + " " + header.description().orElse("")).toLowerCase(Locale.ROOT);
    boolean warns = WARNING_WORDS.stream().anyMatch(raw::contains);
    if (warns) {
      return false;
    }
    for (String tool : recentTools) {
      String name = tool.strip();
      int lastSegment = name.lastIndexOf("__");
      String toolName = lastSegment >= 0 ? name.substring(lastSegment + 2) : name;
      String phrase = NON_WORD.matcher(toolName.toLowerCase(Locale.ROOT)).replaceAll(" ").strip();
      if (!phrase.isEmpty() && text.contains(" " + phrase + " ")) {
        return true;
      }
    }
    return false;
  }
}
