package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.memory.MemoryScope;
import dev.teammemory.daemon.memory.MemoryType;
import dev.teammemory.daemon.memory.WordOverlap;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.secrets.Verdict;
import dev.teammemory.daemon.transcript.ContentBlock;
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
 * Memory extraction without a model: what the user said that is plainly worth keeping, read
 * sentence by sentence, in English and Chinese and, for the commonest forms, German, Spanish,
 * French, Portuguese and Japanese. The rules read the shape of a sentence (who it is about, whether
 * it answers what the agent just did, whether it states what "we" do, carries a reason, names a
 * place) more than particular words.
 *
 * <ul>
 *   <li>What the user says about themselves (role, background, what they own) is a {@code user}
 *       memory.
 *   <li>A correction of what the agent just did (the user's next words after the agent acted, even
 *       when a rejected tool call and an interruption stand between them: an imperative, a reply
 *       opening with "No,", a ban, a negation with its alternative, praise for a judgment call), a
 *       rule for how to work ("always", "never", what the team does or does not do, an instruction
 *       with its reason, a change request followed by a lesson from the past), or a taste of the
 *       user's own, is {@code feedback}.
 *   <li>Context the code does not show (a deadline, a freeze, a decision and its reason, who owns
 *       what, what the team may not do, how things ship) is {@code project}; where information
 *       lives in an outside system (a verb of keeping or finding and a named place, a channel, a
 *       wiki) is {@code reference}.
 *   <li>"Remember that …" is saved as whichever of these it is; "remember to …" about the work in
 *       hand is a task reminder.
 * </ul>
 *
 * The sentences that follow such a statement and explain it join it in one memory, up to the next
 * request or question, and a plain statement just before a rule joins it as its reason. A reason
 * the user typed into a rejected tool call counts as something they said. Questions, requests,
 * thanks and remarks about the user's own lapses are not memories; a candidate is refused when it
 * is something memory must not hold: a secret, task state that only matters now, git history, a
 * fact the code states, or a rule {@code CLAUDE.md} already has.
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

  private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;

  private static final Pattern SENTENCE_END =
      Pattern.compile("(?<=[.!?])\\s+(?=\\S)|(?<=[。！？；])\\s*|\\n+");

  /** What a rejected tool call records when the user typed a reason into the prompt. */
  private static final String REJECTION_REASON = "To tell you how to proceed, the user said:";

  private static final Pattern REMEMBER =
      Pattern.compile(
          "^(?:(?:please|pls|also|and|oh|btw|ok|okay|one more thing)[,:]?\\s+)*"
              + "(?:remember|keep in mind|don'?t forget|do not forget|memori[sz]e|note for later)"
              + "\\b[,:]?\\s*(?:that\\s+|this[:,]?\\s+)?(.+)$"
              + "|^(?:另外|还有|顺便|对了)?[，,]?\\s*(?:请)?(?:记一下|记住|记得|备注一下|记下来)[：:，,]?\\s*(.+)$",
          FLAGS);

  /**
   * Words that open a correction, a confirmation or a remark ("No, …", "Yes, exactly — …", "Heads
   * up: …"); what follows them is read for a rule. "No" and its kind open only when punctuation
   * follows, so that "No Lombok in this codebase" keeps its "No".
   */
  private static final Pattern OPENER =
      Pattern.compile(
          "^(?:(?:no|nope|nein|non|não|nao|yes|yeah|yep|exactly|right|correct|perfect|good|great"
              + "|nice|ok|okay|hi|hey|hm+|ah|oh|well|wrong|stop)\\s*[,.!:;—–-]+\\s*"
              + "|(?:actually|so|and|also|but|heads up|fyi|just so you know|for the record"
              + "|for context"
              + "|context you should know"
              + "|context|for next time|note)\\b[\\s,.!:;—–-]*)+",
          FLAGS);

  /**
   * A reply that opens by saying the agent got it wrong ("No, …", "Nein, …", "Não, …"); what
   * follows it, when it is a statement, is the correction.
   */
  private static final Pattern NEGATION_OPENER =
      Pattern.compile("^(?:no|nope|nein|non|não|nao|wrong|いいえ|不对|不是)\\s*[,.!:;—–、，-]", FLAGS);

  private static final Pattern IDENTITY =
      Pattern.compile(
          "\\b(?:I'?m|I am)\\s+(?:more of |kind of |sort of |basically |mostly )?(?:a|an)\\s+"
              + "(?:[\\w+#./-]+\\s+){0,4}?(?:person|junior|senior|beginner|newcomer|new hire"
              + "|developer|dev|engineer"
              + "|scientist|designer|manager|lead|architect|analyst|SRE|admin|administrator|PM"
              + "|intern|student|researcher|founder|CTO|consultant|contractor|maintainer|tester"
              + "|QA|programmer|hacker)s?\\b"
              + "|\\b(?:I'?m|I am) the (?:[\\w-]+\\s+){0,2}?(?:lead|owner|maintainer|manager"
              + "|architect|engineer|developer|designer|admin)\\b"
              + "|\\b(?:I'?m|I am) on the [\\w\\s-]{1,30}? team\\b"
              + "|\\bI (?:own|maintain|lead|manage|run) the\\b"
              + "|\\bmy role\\b|\\bI work as\\b"
              // Background in the user's own words: what they mostly do, what is new to them.
              + "|\\bI (?:mostly|mainly|usually|normally|primarily) (?:write|code|work|do"
              + "|program)\\b"
              + "|\\bI (?:do|write|work (?:on|in|with)) (?:mostly|mainly|primarily)\\b"
              + "|\\bmy (?:background|area|expertise|speciality|specialty) is\\b"
              + "|\\bnot my (?:thing|area|strong suit)\\b"
              + "|\\bI (?:started|joined)\\b.{0,30}\\bago\\b"
              + "|\\bmy first (?:day|week|month|time) (?:with|touching|using|in|on|writing)\\b"
              + "|\\b(?:I'?m|I am) (?:(?:fairly|pretty|quite|very) )?(?:new to"
              + "|not familiar with)\\b"
              + "|^(?:sou|soy|je suis|ich bin)\\s+(?:(?:um|uma|un|una|une|ein|eine)\\s+)?"
              + "(?:[\\p{L}]+-)?(?:designer|desenvolvedor[a]?|desarrollador[a]?|développeu(?:r|se)"
              + "|entwickler(?:in)?"
              + "|programador[a]?|programmeu(?:r|se)|programmierer(?:in)?|engenheir[oa]"
              + "|ingenier[oa]"
              + "|ingénieur[e]?|ingenieur(?:in)?|analista|analyst(?:in)?|gerente|architekt(?:in)?"
              + "|arquitet[oa]|arquitect[oa]|architecte|data scientist|product manager"
              + "|tech lead)\\b"
              + "|我是.{0,20}?(?:负责人|工程师|开发|经理|设计师|组长|主管|实习生|科学家|运维|架构师|产品)"
              + "|我(?:负责|在).{0,12}?(?:组|团队)",
          FLAGS);

  private static final Pattern SYSTEM =
      Pattern.compile(
          "\\b(?:grafana|datadog|sentry|pagerduty|opsgenie|linear|jira|confluence|notion|slack"
              + "|kibana|splunk|new relic|honeycomb|prometheus|looker|metabase|figma|trello|asana"
              + "|buildkite|circleci|jenkins|launchdarkly|statuspage|bugsnag|rollbar|posthog"
              + "|amplitude|mixpanel|google (?:docs?|sheets?|drive)|sharepoint|backstage)\\b",
          FLAGS);
  private static final Pattern WHERE =
      Pattern.compile(
          "\\b(?:board|dashboard|panel|project|service|channel|space|queue|tracker|runbook|wiki"
              + "|page|tracked (?:in|under)|land(?:s)? in|live(?:s)? in|is at|are at|look there"
              + "|check there|look in|is in|are in)\\b|去\\s*\\S+\\s*看|在\\s*\\S+\\s*(?:上|里)(?:看|查)"
              + "|空间|看板|仪表盘|频道|项目",
          FLAGS);
  private static final Pattern URL = Pattern.compile("https?://\\S+");

  /**
   * Where something lives, said as a place: a verb of keeping or finding followed by a named place,
   * a chat channel or a kind of place ("filed in YouTrack", "live in Checkly", "post in
   * #db-oncall", "on the ops wiki"). A file or folder is not such a place: the code shows it.
   */
  private static final Pattern POINTER =
      Pattern.compile(
          "\\b(?:(?:is|are|get|gets|being) (?:filed|tracked|managed|kept|documented|logged"
              + "|reported|configured|collected) (?:in|on|under|at)"
              + "|(?:live|lives|sit|sits|show up|shows up|land|lands|end up|ends up) (?:in|on"
              + "|under)"
              + "|(?:it'?s|they'?re|is|are) on the|post (?:it )?in|ask in|check in|look in)"
              + "\\s+(?:the |our |a )?(?:[\\w-]+ )?"
              + "(?:#[\\w-]+|'[^']+'|\"[^\"]+\"|(?-i:[A-Z][\\w-]*[a-z][\\w-]*)(?![\\w./-]*[./]\\w)"
              + "|(?:wiki|runbook|dashboard|board|tracker|channel|dataset|workspace|space"
              + "|sheet)\\b)",
          FLAGS);

  /** A rule for how to work, wherever it stands in a sentence. */
  private static final Pattern RULE =
      Pattern.compile(
          "\\b(?:from now on|going forward|in the future|every time|whenever|always|never"
              + "|in this (?:repo|repository|codebase|project|code base))\\b"
              + "|^(?:please )?(?:stop|quit) \\w+ing\\b"
              + "|\\bI (?:always |really |generally |usually )?(?:prefer|like to|want you to)\\b"
              + "|\\bI'?d rather\\b|\\bI would (?:rather|prefer)\\b"
              + "|以后|今后|每次|一律|统一用|只用|只认|这个仓库|本仓库"
              // "always" and "never" in the other languages of an international team.
              + "|\\b(?:siempre|nunca|immer|niemals|toujours|jamais|sempre)\\b|いつも|常に|必ず|決して"
              + "|このリポジトリ|うちでは"
              // How the team works, said as what "we" do or do not do, or as what is "not how we
              // do".
              + "|\\bwe (?:don'?t|do not|never|no longer|only|always) (?:use|do|write|run|call|put"
              + "|keep|commit|deploy|merge|push|add|touch|edit|ship|mock)\\b"
              + "|\\bwe (?:use|have) (?:a |an |our own |the "
              + "|one )?[\\w.-]+(?: [\\w.-]+)? for (?:this|that)\\b"
              + "|\\bnot how we do\\b|\\bwe (?:stopped|quit|gave up) \\w+ing\\b"
              // A rule over a whole class of work ("before upgrading any major version").
              + "|\\b(?:before|when|whenever|after) \\w+ing (?:any|every|all)\\b"
              + "|\\b(?:check|ask|ping) (?:with )?me (?:first|before)\\b"
              + "|\\bas a rule\\b|\\bby convention\\b|\\b(?:our|the) (?:convention|policy"
              + "|rule) (?:here )?is\\b"
              + "|\\bwe'?re an? [\\w.+#-]+ (?:shop|house)\\b"
              // A taste of the user's own, unless it only approves what the agent just did.
              + "|\\bI (?:really )?(?:like|love|hate|dislike|can'?t stand) (?!it\\b|that\\b|this\\b"
              + "|the way you\\b|how you\\b|what you\\b)"
              + "|\\bbei uns\\b|\\bwir (?:benutzen|nutzen|verwenden|schreiben)\\b"
              + "|\\bhaben wir\\b.*\\b(?:raus|abgeschafft)"
              + "|\\bchez nous\\b|\\bon (?:n'?)?utilise\\b|\\bnous (?:n'?)?utilisons\\b"
              + "|\\baquí (?:no )?usamos\\b|\\baqui (?:não )?usamos\\b|\\ba gente (?:não )?usa\\b",
          FLAGS);

  /**
   * Praise for a judgment call the agent made ("Good call keeping it as one PR", "that was the
   * right choice"): a confirmation, kept like a correction when it answers what the agent did.
   */
  private static final Pattern CONFIRMATION =
      Pattern.compile(
          "^(?:good|great|right|nice|smart|wise) (?:call|choice|move|instinct)\\b"
              + "|\\b(?:was|is) (?:exactly )?the right (?:call|choice|move)\\b"
              + "|\\bkeep doing (?:it|that|this)\\b"
              + "|\\bthat'?s (?:exactly )?(?:how|what|the way) I (?:want|like)\\b",
          FLAGS);

  /** An instruction about how things are done, which a reason turns into a rule. */
  private static final Pattern INSTRUCTION =
      Pattern.compile(
          "^(?:please )?(?:keep|use|store|save|prefer|avoid|put|write|name|make sure|don'?t|do not)"
              + "\\b|^(?:não|nao|no) (?:use|usa|uses|coloque|pongas|hagas|faça)\\b"
              + "|^n'utilise pas\\b"
              + "|^(?:benutze|verwende|nutze) kein",
          FLAGS);

  /**
   * A request for one change ("Change it so …"); only a lesson from something that went wrong
   * before turns it into a rule, since a reason of the moment ("the tests are slow") does not last.
   */
  private static final Pattern CHANGE_REQUEST =
      Pattern.compile("^(?:please )?(?:change|switch|set|make|move|convert)\\b", FLAGS);

  private static final Pattern LESSON =
      Pattern.compile(
          "\\b(?:broke|caused|bit us|burned us|last time|last (?:year|month|quarter)|in the past"
              + "|twice|again and again)\\b",
          FLAGS);

  /**
   * A reason that points at the code in front of the agent ("it's already loaded above", "the new
   * function"): the instruction is then about this change, not a rule.
   */
  private static final Pattern ABOUT_THIS_CODE =
      Pattern.compile(
          "\\b(?:the|this|that) (?:new|second|first|next|same|above)\\b|\\b(?:above|below)\\b"
              + "|\\bthat'?s where\\b",
          FLAGS);

  /** Why something must be so: a cause, a purpose, or what broke before. */
  private static final Pattern REASON =
      Pattern.compile(
          "\\b(?:because|since|so that|otherwise|or else|on purpose|broke|breaks|break|caused"
              + "|causes|bit us|that'?s why)\\b"
              + "|[,;:—–-]\\s*I (?!'ll|will|would|'d|can|think|guess|don'?t)[a-z]+\\b"
              + "|\\b(?:weil|denn|porque|por causa|parce que|car)\\b|因为|否则|ので|から",
          FLAGS);

  /**
   * Words a rule uses that here only make a remark: the user's own lapses ("I always forget …"),
   * "always the same error", "never mind", or a pick among the options the agent just offered ("I
   * prefer the second one").
   */
  private static final Pattern REMARK =
      Pattern.compile(
          "\\bI (?:always|never) (?:forget|remember|mix up|get|confuse|misspell)\\b"
              + "|\\b(?:always|never) (?:the|a|an|mind|again)\\b"
              + "|\\b(?:prefer|like|rather) (?:the (?:first|second|third|last"
              + "|other|former|latter)|(?:your|that|this) (?:option|one|version|approach))\\b",
          FLAGS);

  /** A rule only where the sentence answers what the agent just did. */
  private static final Pattern CORRECTION =
      Pattern.compile(
          "^(?:please )?(?:don'?t|do not|never|stop|avoid|use|prefer|only|make sure|keep"
              + "|leave)\\b|\\bonly \\w+\\b|, not\\b|\\binstead of\\b|\\brather than\\b"
              + "|^no (?!worries|problem|rush|idea|need|thanks|way|clue"
              + "|luck)(?:[\\w.-]+ ){0,2}[\\w.-]+\\s*[,;:—–-]"
              + "|^(?:不要|别|不用|不是|必须|禁止)|而不是|ではなく|じゃなくて"
              + "|\\b(?:statt|anstatt|sondern|en vez de|en lugar de|au lieu de|plutôt que"
              + "|em vez de|ao invés de)\\b",
          FLAGS);

  private static final Pattern PROJECT =
      Pattern.compile(
          "^(?:heads up|fyi|just so you know|for the record|for context|context|note that"
              + "|be aware)\\b"
              + "|\\bwe(?:'re| are)(?: not)? (?:allowed|permitted|required) to\\b"
              + "|\\bcontext you should know\\b|\\bknown (?:flaky|issue|bug|problem)\\b"
              + "|\\btracked as [A-Z][A-Z0-9]+-\\d+|\\bdeadline\\b|\\bfreeze\\b"
              + "|\\brelease (?:cut|train|branch)\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b"
              + "|\\bcompliance\\b|\\baudit(?:ors?)?\\b|\\blegal (?:wants|requires|says|team)\\b"
              + "|\\b(?:we(?:'re| are)|(?:the (?:whole )?team|everyone|the company) is)"
              + " (?:retiring|moving|migrating|deprecating|dropping|switching"
              + "|replacing|sunsetting|phasing out)\\b"
              + "|\\bwe (?:decided|agreed|chose|went with|picked|settled on|standardi[sz]ed on)\\b"
              // Who owns what: a named person or team and a verb of ownership.
              + "|(?-i:\\b[A-Z][\\p{L}-]+(?:'s team)?) (?:owns|maintains|is responsible for"
              + "|looks after|signs off on)\\b"
              + "|(?-i:\\b[A-Z][\\p{L}-]+) is the (?:person to ask|owner|expert|go-to(?: person)?"
              + "|point of contact) (?:about|for|of|on)\\b"
              + "|\\b(?:she|he|they)(?:'s| is|'re| are) the (?:[\\w-]+ )?(?:PM|owner|lead|expert"
              + "|contact"
              + "|maintainer)s? (?:for|of|on)\\b"
              + "|\\b(?:questions|requests|reviews|escalations) (?:go|goes) to (?-i:[A-Z])"
              // How and when things ship: a habit of an environment, not visible in the code.
              + "|\\b(?:staging|prod|production|releases?|deploys?|deployments?)\\b.{0,60}"
              + "\\b(?:happen|happens|run|runs|go out|goes out|is|are) (?:automatically"
              + "|manual(?:ly)?"
              + "|nightly|weekly|daily|on (?:merge|tag|push))\\b"
              + "|\\bevery (?:day|night|week|monday|tuesday|wednesday|thursday|friday|saturday"
              + "|sunday)\\b|\\bonly (?:\\w+ )?on (?:mondays?|tuesdays?|wednesdays?|thursdays?"
              + "|fridays?|saturdays?|sundays?)\\b"
              + "|截止|冻结|合规|审计",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern QUESTION_START =
      Pattern.compile(
          "^(?:who|what|why|how|where|when|which|can|could|would|is|are|does|do|did|should"
              + "|will|any|have|has)\\b|^(?:为什么|怎么|什么|哪|是否|能不能|可不可以)",
          FLAGS);

  /** A sentence that is a new request rather than more about what came before. */
  private static final Pattern REQUEST_START =
      Pattern.compile(
          "^(?:now|then|next|here'?s|here is|can you|could you|please|let'?s|ok|okay|thanks"
              + "|thank you|fix|add|open|run|commit|ship|go|make|write|create|update|change"
              + "|rename|move|delete|remove|convert|do|try|start|finish|show|send|push|merge"
              + "|reword|revert|check|look)\\b|^(?:好|再|先|帮我|请|然后|接下来)",
          FLAGS);

  private static final Pattern EPHEMERAL =
      Pattern.compile(
          "\\b(?:right now|currently|for now|not now|at the moment|this (?:task|session|turn"
              + "|branch|pr|ticket|file|one|time|week)|in progress|next step|todo|temporar(?:y|ily)"
              + "|today|tonight|tomorrow|this (?:morning|afternoon|evening)"
              + "|(?:that|the other) one|(?:on )?line \\d+)\\b"
              + "|今天|明天|现在|暂时|这次|先这样",
          FLAGS);
  private static final Pattern GIT_HISTORY =
      Pattern.compile(
          "(\\bgit log\\b|\\bcommit [0-9a-f]{7,40}\\b|\\b(?=[0-9a-f]*[a-f])[0-9a-f]{12,40}\\b"
              + "|\\bPR\\s*#\\d+|\\bpull request #?\\d+|\\bwas (?:merged|committed|reverted"
              + "|changed) (?:in|by|on|last)\\b|\\brecent (?:changes|commits)\\b"
              + "|\\bwho (?:changed|wrote|broke)\\b)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern CODE_FACT =
      Pattern.compile(
          "(\\b(?:is|are) (?:defined|declared|implemented|located) in\\b"
              + "|\\b(?:function|method|class|module)\\s+`?[\\w.]+`?\\s+(?:returns|calls|takes"
              + "|handles|is called)\\b|\\bthe (?:architecture|directory structure|file layout)"
              + " (?:is|has)\\b)",
          Pattern.CASE_INSENSITIVE);

  /**
   * A "remember to" that points at the work in hand ("for it", "before you commit", "when you're
   * done"): a reminder for this task, not a rule.
   */
  private static final Pattern TASK_REMINDER =
      Pattern.compile(
          "\\b(?:for|to|on|with|in) (?:it|this|that|them)\\b|\\bbefore you (?:commit|push|finish"
              + "|merge|open|ship|send)\\b|\\bwhen you'?re done\\b|\\bafter (?:that|this)\\b",
          FLAGS);

  private static final Pattern CLAUDE_MD = Pattern.compile("\\bCLAUDE\\.md\\b");

  private static final Pattern PROJECT_WIDE =
      Pattern.compile(
          "\\b(?:we|we're|we've|our|us|team|everyone|all of us|project-wide"
              + "|in this (?:repo|repository|codebase|project|code base))\\b"
              + "|这个仓库|本仓库|我们|团队|大家|このリポジトリ|うちでは|私たち"
              + "|\\b(?:wir|uns|unser\\w*|nosotros|nuestr[oa]s?|nous|notre|nos|nós|nosso|nossa)\\b"
              // What the whole project shares, whoever works on it.
              + "|\\b(?:the (?:repo|build|servers?|pipeline|codebase)|dev containers|production"
              + "|prod"
              + "|CI|commit messages?|mensajes de commit)\\b",
          FLAGS);
  private static final Pattern PERSONAL =
      Pattern.compile(
          "\\bI (?:use|prefer|like|want|read|always|never|usually|hate|love)\\b"
              + "|\\b(?:ask|asking|tell|telling|ping|pinging) me\\b|\\bI'?d rather\\b"
              + "|\\bmy own\\b|我(?:喜欢|习惯|一般|自己)",
          FLAGS);

  private static final int MAX_TEXT = 600;
  private static final int MAX_FOLLOWING = 3;

  private OfflineExtractor() {}

  /** The candidates in a whole conversation. */
  static Found find(List<TranscriptEntry> messages, SecretGuard guard) {
    return find(messages, 0, guard);
  }

  /**
   * The candidates in what the user said from message {@code from} on; the messages before it still
   * tell whether the agent had acted.
   *
   * @param messages the conversation, oldest first
   */
  static Found find(List<TranscriptEntry> messages, int from, SecretGuard guard) {
    List<Candidate> candidates = new ArrayList<>();
    List<Refusal> refusals = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    boolean agentActed = false;
    for (int i = 0; i < messages.size(); i++) {
      TranscriptEntry message = messages.get(i);
      if (message.isAssistant()) {
        agentActed = true;
        continue;
      }
      if (i < from) {
        continue;
      }
      for (String said : userWords(message)) {
        for (Candidate candidate : candidates(sentences(said), agentActed, refusals, guard)) {
          if (seen.add(WordOverlap.normalized(candidate.text()))) {
            candidates.add(candidate);
          }
        }
      }
    }
    return new Found(candidates, refusals);
  }

  /** What the user said in a message: a typed prompt, or a reason typed into a rejection. */
  private static List<String> userWords(TranscriptEntry message) {
    if (message.isHumanTurn()) {
      return List.of(message.text());
    }
    List<String> reasons = new ArrayList<>();
    for (ContentBlock.ToolResult result : message.toolResults()) {
      String text = result.text();
      int at = text.indexOf(REJECTION_REASON);
      if (result.isError() && at >= 0) {
        String reason = text.substring(at + REJECTION_REASON.length()).strip();
        if (!reason.isEmpty()) {
          reasons.add(reason);
        }
      }
    }
    return reasons;
  }

  /** The kind and type of one sentence, when it is worth a memory. */
  private record Reading(Candidate.Kind kind, MemoryType type, String lead) {}

  /** One sentence of a group, and what it is on its own, when it is something. */
  private record Said(String sentence, Optional<Reading> reading) {}

  private static List<Candidate> candidates(
      List<String> sentences, boolean agentActed, List<Refusal> refusals, SecretGuard guard) {
    List<Candidate> found = new ArrayList<>();
    List<String> aboutUser = new ArrayList<>();
    List<Said> group = new ArrayList<>();
    // A plain statement just before a rule often gives its reason ("console.log is stripped in
    // prod. We have a logger for that."); it joins the rule if one follows.
    Optional<String> context = Optional.empty();
    for (int s = 0; s < sentences.size(); s++) {
      String sentence = sentences.get(s);
      if (isQuestion(sentence)) {
        close(group, found, refusals, guard);
        context = Optional.empty();
        continue;
      }
      if (IDENTITY.matcher(sentence).find()) {
        aboutUser.add(sentence);
        // What follows from who they are ("Sou designer. Explica de forma simples …") goes with it.
        if (s + 1 < sentences.size()
            && !isQuestion(sentences.get(s + 1))
            && !IDENTITY.matcher(sentences.get(s + 1)).find()
            && read(sentences.get(s + 1), false).isEmpty()
            && refusal(sentences.get(s + 1), guard).isEmpty()) {
          aboutUser.add(sentences.get(++s));
        }
        continue;
      }
      // A sentence that follows a correction may correct too ("I use podman, not docker").
      Optional<Reading> reading = read(sentence, s == 0 && agentActed || !group.isEmpty());
      if (reading.isEmpty()
          && group.isEmpty()
          && s + 1 < sentences.size()
          && givesReasonFor(sentence, sentences.get(s + 1))) {
        reading =
            Optional.of(new Reading(Candidate.Kind.RULE, MemoryType.FEEDBACK, strip(sentence)));
      }
      Optional<Refusal> refusal =
          reading.isPresent() || !group.isEmpty() ? refusal(sentence, guard) : Optional.empty();
      Optional<String> before = context;
      context = Optional.empty();
      if (refusal.isPresent()) {
        if (reading.isPresent()) {
          refusals.add(refusal.get());
        }
        close(group, found, refusals, guard);
      } else if (reading.isPresent() && startsAnother(group, reading.get())) {
        close(group, found, refusals, guard);
        group.add(new Said(sentence, reading));
      } else if (reading.isPresent() && group.isEmpty()) {
        if (before.isPresent() && reading.get().type() == MemoryType.FEEDBACK) {
          group.add(new Said(before.get(), Optional.empty()));
        }
        group.add(new Said(sentence, reading));
      } else if (group.isEmpty()
          && !REQUEST_START.matcher(sentence).find()
          && refusal(sentence, guard).isEmpty()) {
        context = Optional.of(sentence);
      } else if (!group.isEmpty()
          && (reading.isPresent() || !REQUEST_START.matcher(sentence).find())
          && group.size() <= MAX_FOLLOWING) {
        group.add(new Said(sentence, reading));
      } else {
        close(group, found, refusals, guard);
      }
    }
    close(group, found, refusals, guard);
    if (!aboutUser.isEmpty()) {
      String text = String.join(" ", aboutUser);
      Optional<String> secret = secret(text, guard);
      if (secret.isPresent()) {
        refusals.add(new Refusal(secret.get(), ""));
      } else {
        found.add(
            0,
            new Candidate(
                Candidate.Kind.ABOUT_THE_USER,
                MemoryType.USER,
                MemoryScope.Audience.PERSONAL,
                strip(aboutUser.getFirst()),
                cut(text),
                "the user said this about themselves"));
      }
    }
    return found;
  }

  /**
   * Whether a statement starts a memory of its own rather than explaining the one before: "remember
   * …" always does, and so does a rule or a fact of another type; a correction that follows one is
   * part of it.
   */
  private static boolean startsAnother(List<Said> group, Reading reading) {
    return !group.isEmpty()
        && (reading.kind() == Candidate.Kind.REMEMBER
            || reading.kind() != Candidate.Kind.CORRECTION
                && reading.type() != firstReading(group).type());
  }

  /** The reading of the first statement in a group, past any sentence that only leads into it. */
  private static Reading firstReading(List<Said> group) {
    return group.stream().flatMap(said -> said.reading().stream()).findFirst().orElseThrow();
  }

  /**
   * Whether a request is followed by why it must be done so ("Store it in UTC. Local times broke
   * the billing reports."): the request is then a rule with its reason.
   */
  private static boolean givesReasonFor(String request, String next) {
    String asked = strip(request);
    boolean reasoned =
        INSTRUCTION.matcher(asked).lookingAt() && REASON.matcher(next).find()
            || CHANGE_REQUEST.matcher(asked).lookingAt() && LESSON.matcher(next).find();
    return reasoned
        && !ABOUT_THIS_CODE.matcher(request + " " + next).find()
        && !isQuestion(next)
        && !REQUEST_START.matcher(next).find()
        && read(next, false).isEmpty();
  }

  /**
   * Turns a group of sentences into one candidate of the kind and type of its first statement, led
   * by its statements together ("Don't install anything. I use podman, not docker").
   */
  private static void close(
      List<Said> group, List<Candidate> found, List<Refusal> refusals, SecretGuard guard) {
    if (group.isEmpty()) {
      return;
    }
    String joined = group.stream().map(Said::sentence).collect(Collectors.joining(" "));
    Reading first = firstReading(group);
    String lead =
        group.stream()
            .flatMap(said -> said.reading().stream())
            .map(Reading::lead)
            .map(statement -> statement.matches(".*[.!。！]$") ? statement : statement + ".")
            .reduce((before, after) -> before + (before.matches(".*[。！]$") ? "" : " ") + after)
            .orElseThrow();
    group.clear();
    Optional<String> secret = secret(joined, guard);
    if (secret.isPresent()) {
      refusals.add(new Refusal(secret.get(), ""));
      return;
    }
    found.add(
        new Candidate(first.kind(), first.type(), audience(joined), lead, cut(joined), why(first)));
  }

  /**
   * What a sentence is, when it is worth a memory.
   *
   * @param answersAgent whether it opens what the user said after the agent acted, so that a plain
   *     correction ("No, use bun") counts
   */
  private static Optional<Reading> read(String sentence, boolean answersAgent) {
    Matcher remember = REMEMBER.matcher(sentence);
    if (remember.matches()) {
      String content = remember.group(1) != null ? remember.group(1) : remember.group(2);
      if (content == null || content.strip().length() < 3) {
        return Optional.empty();
      }
      // "Remember to run the seed first" is a rule: run the seed first.
      if (content.strip().toLowerCase(Locale.ROOT).startsWith("to ")) {
        String rule = strip(content.strip().substring(3));
        if (TASK_REMINDER.matcher(rule).find()) {
          return Optional.empty();
        }
        return Optional.of(new Reading(Candidate.Kind.REMEMBER, MemoryType.FEEDBACK, rule));
      }
      return Optional.of(new Reading(Candidate.Kind.REMEMBER, typeOf(content), strip(content)));
    }
    String rest = strip(sentence);
    if (isReference(sentence)) {
      return Optional.of(new Reading(Candidate.Kind.STATEMENT, MemoryType.REFERENCE, rest));
    }
    if ((RULE.matcher(sentence).find() || RULE.matcher(rest).find())
        && !REMARK.matcher(rest).find()) {
      return Optional.of(new Reading(Candidate.Kind.RULE, MemoryType.FEEDBACK, rest));
    }
    if (PROJECT.matcher(sentence).find() || PROJECT.matcher(rest).find()) {
      return Optional.of(new Reading(Candidate.Kind.STATEMENT, MemoryType.PROJECT, rest));
    }
    // An instruction with its reason in the same breath ("Keep the diffs small, I review on my
    // phone") is a rule whether or not it answers anything.
    if (INSTRUCTION.matcher(rest).lookingAt()
        && REASON.matcher(rest).find()
        && !ABOUT_THIS_CODE.matcher(rest).find()) {
      return Optional.of(new Reading(Candidate.Kind.RULE, MemoryType.FEEDBACK, rest));
    }
    if (answersAgent
        && !REMARK.matcher(rest).find()
        && (CORRECTION.matcher(rest).find()
            || NEGATION_OPENER.matcher(sentence.strip()).lookingAt()
            || CONFIRMATION.matcher(rest).find())) {
      return Optional.of(new Reading(Candidate.Kind.CORRECTION, MemoryType.FEEDBACK, rest));
    }
    return Optional.empty();
  }

  /**
   * A memory from one entry of a daily log, of the type the entry names or, unnamed, the type its
   * words show; empty when memory must not hold it.
   */
  static Optional<Candidate> fromLogEntry(
      String entry, Optional<MemoryType> named, java.time.LocalDate day, SecretGuard guard) {
    if (refusal(entry, guard).isPresent() || entry.length() < 3) {
      return Optional.empty();
    }
    MemoryType type = named.orElseGet(() -> typeOf(entry));
    return Optional.of(
        new Candidate(
            Candidate.Kind.REMEMBER,
            type,
            audience(entry),
            strip(entry),
            cut(entry),
            "distilled from the daily log of " + day));
  }

  /** The type of something the user asked to have remembered. */
  private static MemoryType typeOf(String content) {
    if (IDENTITY.matcher(content).find()) {
      return MemoryType.USER;
    }
    if (isReference(content)) {
      return MemoryType.REFERENCE;
    }
    String rest = strip(content);
    if (RULE.matcher(rest).find()
        || CORRECTION.matcher(rest).lookingAt()
        || Pattern.compile("\\b(?:must|should|have to|needs? to)\\b", FLAGS).matcher(rest).find()
        || PERSONAL.matcher(rest).find()) {
      return MemoryType.FEEDBACK;
    }
    return MemoryType.PROJECT;
  }

  private static boolean isReference(String text) {
    return URL.matcher(text).find()
        || SYSTEM.matcher(text).find() && WHERE.matcher(text).find()
        || POINTER.matcher(text).find();
  }

  private static boolean isQuestion(String sentence) {
    String text = sentence.strip();
    boolean asks =
        text.endsWith("?") || text.endsWith("？") || text.endsWith("吗") || text.endsWith("呢");
    return asks && QUESTION_START.matcher(strip(text)).find();
  }

  /** The sentence without the words that open it ("No,", "Heads up:", "Yes, exactly —"). */
  static String strip(String sentence) {
    Matcher opener = OPENER.matcher(sentence.strip());
    String rest = opener.lookingAt() ? sentence.strip().substring(opener.end()) : sentence.strip();
    rest = rest.replaceFirst("^(?:that|this is|context you should know)[\\s:,]+", "").strip();
    if (rest.isEmpty()) {
      return sentence.strip();
    }
    return Character.toUpperCase(rest.charAt(0)) + rest.substring(1);
  }

  private static MemoryScope.Audience audience(String text) {
    if (PROJECT_WIDE.matcher(text).find()) {
      return MemoryScope.Audience.PROJECT_WIDE;
    }
    return PERSONAL.matcher(text).find()
        ? MemoryScope.Audience.PERSONAL
        : MemoryScope.Audience.UNSTATED;
  }

  private static String why(Reading reading) {
    return switch (reading.kind()) {
      case REMEMBER -> "the user asked for this to be remembered";
      case CORRECTION -> "the user corrected the agent";
      case RULE -> "the user stated how to work";
      case STATEMENT ->
          reading.type() == MemoryType.REFERENCE
              ? "the user pointed to where this information lives"
              : "the user gave this as context for the work";
      case ABOUT_THE_USER -> "the user said this about themselves";
    };
  }

  private static Optional<String> secret(String text, SecretGuard guard) {
    if (guard.check("candidate", text) instanceof Verdict.Flagged flagged) {
      return Optional.of(
          "looks like a secret ("
              + flagged.findings().stream()
                  .map(Finding::ruleId)
                  .distinct()
                  .collect(Collectors.joining(", "))
              + "); secrets are never saved");
    }
    return Optional.empty();
  }

  /** Why a sentence must not be saved, or empty when it may be; a secret is never repeated. */
  static Optional<Refusal> refusal(String sentence, SecretGuard guard) {
    Optional<String> secret = secret(sentence, guard);
    if (secret.isPresent()) {
      return Optional.of(new Refusal(secret.get(), ""));
    }
    String reason = null;
    if (GIT_HISTORY.matcher(sentence).find()) {
      reason = "git history: git log and git blame are the authority";
    } else if (EPHEMERAL.matcher(sentence).find()) {
      reason = "ephemeral task state: it only matters to the current task";
    } else if (CODE_FACT.matcher(sentence).find()) {
      reason = "derivable from the code: reading the project gives it";
    } else if (CLAUDE_MD.matcher(sentence).find()) {
      reason = "already in CLAUDE.md, which the agent reads every session";
    }
    return Optional.ofNullable(reason).map(why -> new Refusal(why, excerpt(sentence)));
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

  private static String cut(String text) {
    return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT).strip() + " …";
  }

  private static String excerpt(String text) {
    return text.length() <= 120 ? text : text.substring(0, 120) + "…";
  }
}
