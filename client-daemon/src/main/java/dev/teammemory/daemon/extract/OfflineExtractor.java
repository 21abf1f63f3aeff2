package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.memory.MemoryScope;
import dev.teammemory.daemon.memory.MemoryType;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.secrets.Verdict;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import dev.teammemory.secrets.Finding;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Memory extraction without a model: only what is unambiguous. An explicit request to remember
 * something, a correction of what the agent just did, and a stated preference become feedback
 * memories (or user memories when they describe the user). Everything else in the conversation is
 * left alone, and a candidate is refused when it is something memory must not hold: a secret,
 * ephemeral task state, git history, or facts the code itself states.
 */
final class OfflineExtractor {

  /** A candidate that was not saved, and why. {@code excerpt} is empty for secrets. */
  record Refusal(String reason, String excerpt) {
    Refusal {
      requireNonNull(reason, "reason is null");
      requireNonNull(excerpt, "excerpt is null");
    }
  }

  record Found(List<Candidate> candidates, List<Refusal> refusals) {
    Found {
      candidates = List.copyOf(candidates);
      refusals = List.copyOf(refusals);
    }
  }

  private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+|\\n+");
  private static final Pattern REMEMBER =
      Pattern.compile(
          "^(?:(?:please|pls|also|and|oh|btw)[,]?\\s+)*(?:remember|keep in mind|don'?t forget|do not forget|memori[sz]e|for future reference|save (?:this|that) (?:to|in) (?:your )?memory)\\b[,:]?\\s*(?:that\\s+|this[:,]?\\s+)?(.+)$",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern PREFERENCE =
      Pattern.compile(
          "\\b(I (?:always |really |generally )?prefer|I'?d (?:rather|prefer)|I would (?:rather|prefer)|I like to|please (?:always|never)|always (?:use|run|write|prefer|put|keep|add|ask)|never (?:use|run|write|put|add|commit|push|mock)|from now on|going forward|in (?:the )?future,)\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern CORRECTION_START =
      Pattern.compile(
          "^(?:no|nope|don'?t|do not|stop|wrong|that'?s (?:not|wrong)|that is not|not like that|instead|actually|never)\\b[,.!:]?\\s*",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern IMPERATIVE =
      Pattern.compile(
          "\\b(use|run|call|put|keep|write|avoid|prefer|make|do not|don'?t|never|always|stop|add|remove|mock|test|name|commit|push|ask|wait|check)\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern IDENTITY =
      Pattern.compile(
          "^(?:I am|I'?m|my role is|I work (?:as|on)|my name is)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern PROJECT_WIDE =
      Pattern.compile(
          "\\b(we|our team|the team|everyone|all of us|in this (?:repo|repository|project|codebase)|project-wide)\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern PERSONAL = Pattern.compile("\\b(I|me|my|I'm|I'd)\\b");

  private static final Pattern EPHEMERAL =
      Pattern.compile(
          "\\b(right now|currently|for now|at the moment|this (?:task|session|turn|branch|pr|ticket)|in progress|next step|todo|temporar(?:y|ily)|today|tonight|this (?:morning|afternoon|evening))\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern GIT_HISTORY =
      Pattern.compile(
          "(\\bgit log\\b|\\bcommit [0-9a-f]{7,40}\\b|\\b[0-9a-f]{12,40}\\b|\\bPR\\s*#\\d+|\\bpull request #?\\d+|\\bwas (?:merged|committed|reverted|changed) (?:in|by|on|last)\\b|\\brecent (?:changes|commits)\\b|\\bwho (?:changed|wrote|broke)\\b)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern CODE_FACT =
      Pattern.compile(
          "(\\b(?:is|are) (?:defined|declared|implemented|located) in\\b|\\blives in\\b|\\b(?:function|method|class|module)\\s+`?[\\w.]+`?\\s+(?:returns|calls|takes|handles|is called)\\b|\\bthe (?:architecture|directory structure|file layout) (?:is|has)\\b)",
          Pattern.CASE_INSENSITIVE);

  private static final int MAX_RULE = 400;

  private OfflineExtractor() {}

  /** The candidates in the user's messages of a whole conversation. */
  static Found find(List<TranscriptEntry> messages, SecretGuard guard) {
    return find(messages, 0, guard);
  }

  /**
   * The candidates in the user's messages from index {@code from} on; the message before it still
   * tells whether the first one answers the agent.
   *
   * @param messages the conversation, oldest first
   */
  static Found find(List<TranscriptEntry> range, int from, SecretGuard guard) {
    List<Candidate> candidates = new ArrayList<>();
    List<Refusal> refusals = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (int i = from; i < range.size(); i++) {
      TranscriptEntry message = range.get(i);
      if (!message.isHumanTurn()) {
        continue;
      }
      boolean afterAgent = i > 0 && range.get(i - 1).isAssistant();
      List<String> sentences = sentences(message.text());
      for (int s = 0; s < sentences.size(); s++) {
        Optional<Candidate> candidate = candidate(sentences, s, afterAgent);
        if (candidate.isEmpty() || !seen.add(normalized(candidate.get().rule()))) {
          continue;
        }
        Optional<String> refusal = refusal(candidate.get().rule(), guard);
        if (refusal.isPresent()) {
          boolean secret = refusal.get().startsWith("looks like a secret");
          refusals.add(new Refusal(refusal.get(), secret ? "" : excerpt(candidate.get().rule())));
        } else {
          candidates.add(candidate.get());
        }
      }
    }
    return new Found(candidates, refusals);
  }

  private static Optional<Candidate> candidate(
      List<String> sentences, int index, boolean afterAgent) {
    String sentence = sentences.get(index);
    Matcher remember = REMEMBER.matcher(sentence);
    if (remember.matches()) {
      String rule = capitalize(remember.group(1).strip());
      if (rule.length() < 3) {
        return Optional.empty();
      }
      MemoryType type = IDENTITY.matcher(rule).find() ? MemoryType.USER : MemoryType.FEEDBACK;
      return Optional.of(
          candidate(
              Candidate.Kind.REMEMBER, type, rule, "the user asked for this to be remembered"));
    }
    if (index == 0 && afterAgent) {
      Matcher correction = CORRECTION_START.matcher(sentence);
      if (correction.lookingAt()) {
        String opening = correction.group().toLowerCase(Locale.ROOT);
        String rest = sentence.substring(correction.end()).strip();
        // "No, use bun" keeps the instruction after the "no"; "Don't mock the DB" is itself one.
        boolean negative =
            opening.startsWith("don")
                || opening.startsWith("do not")
                || opening.startsWith("never");
        String rule =
            negative ? sentence : rest.isEmpty() && sentences.size() > 1 ? sentences.get(1) : rest;
        if (!rule.isBlank() && IMPERATIVE.matcher(rule).find()) {
          return Optional.of(
              candidate(
                  Candidate.Kind.CORRECTION,
                  MemoryType.FEEDBACK,
                  capitalize(rule.strip()),
                  "the user corrected the agent"));
        }
      }
    }
    if (PREFERENCE.matcher(sentence).find()) {
      MemoryType type = IDENTITY.matcher(sentence).find() ? MemoryType.USER : MemoryType.FEEDBACK;
      return Optional.of(
          candidate(
              Candidate.Kind.PREFERENCE,
              type,
              capitalize(sentence.strip()),
              "the user stated this preference"));
    }
    return Optional.empty();
  }

  private static Candidate candidate(
      Candidate.Kind kind, MemoryType type, String rule, String why) {
    String cut = rule.length() > MAX_RULE ? rule.substring(0, MAX_RULE).strip() + "…" : rule;
    MemoryScope.Audience audience =
        PROJECT_WIDE.matcher(cut).find()
            ? MemoryScope.Audience.PROJECT_WIDE
            : PERSONAL.matcher(cut).find()
                ? MemoryScope.Audience.PERSONAL
                : MemoryScope.Audience.UNSTATED;
    return new Candidate(kind, type, audience, cut, why);
  }

  /** Why a candidate must not be saved, or empty when it may be. */
  static Optional<String> refusal(String rule, SecretGuard guard) {
    if (guard.check("candidate", rule) instanceof Verdict.Flagged flagged) {
      return Optional.of(
          "looks like a secret ("
              + flagged.findings().stream()
                  .map(Finding::ruleId)
                  .distinct()
                  .collect(Collectors.joining(", "))
              + "); secrets are never saved");
    }
    if (GIT_HISTORY.matcher(rule).find()) {
      return Optional.of("git history: git log and git blame are the authority");
    }
    if (EPHEMERAL.matcher(rule).find()) {
      return Optional.of("ephemeral task state: it only matters to the current task");
    }
    if (CODE_FACT.matcher(rule).find()) {
      return Optional.of("derivable from the code: reading the project gives it");
    }
    return Optional.empty();
  }

  static List<String> sentences(String text) {
    List<String> sentences = new ArrayList<>();
    for (String sentence : SENTENCE_END.split(text.strip())) {
      String stripped = sentence.strip();
      if (!stripped.isEmpty()) {
        sentences.add(stripped);
      }
    }
    return sentences;
  }

  static String normalized(String text) {
    return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
  }

  private static String capitalize(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  private static String excerpt(String text) {
    return text.length() <= 120 ? text : text.substring(0, 120) + "…";
  }
}
