package dev.teammemory.daemon.compact;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.ModelFailure;
import dev.teammemory.daemon.model.ModelMessage;
import dev.teammemory.daemon.model.ModelOutcome;
import dev.teammemory.daemon.model.ModelRequest;
import dev.teammemory.daemon.model.ModelResponse;
import dev.teammemory.daemon.model.ToolChoice;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.List;
import java.util.Optional;

/**
 * Levels 2 and 3: a model writes the nine-section summary, offered no tools. When the request
 * itself is too long for the model, the oldest API rounds are dropped (by the gap the error
 * reports, else a fifth) and it is asked again, up to {@value #MAX_PROMPT_TOO_LONG_RETRIES} times.
 */
final class ModelSummary {

  static final int MAX_PROMPT_TOO_LONG_RETRIES = 3;

  private ModelSummary() {}

  sealed interface Outcome {
    int promptTooLongRetries();

    record Summarized(String summary, int promptTooLongRetries, int droppedMessages)
        implements Outcome {
      public Summarized {
        requireNonNull(summary, "summary is null");
      }
    }

    record Failed(String reason, int promptTooLongRetries) implements Outcome {
      public Failed {
        requireNonNull(reason, "reason is null");
      }
    }
  }

  /**
   * @param additionalInstructions what the summary should stress beyond the nine sections
   */
  static Outcome summarize(
      AnthropicLanguageModel model,
      List<TranscriptEntry> messages,
      int maxTokens,
      Optional<String> additionalInstructions) {
    List<TranscriptEntry> remaining = messages;
    int retries = 0;
    while (true) {
      String request =
          SummaryPrompt.request(
              ConversationRendering.render(remaining, retries > 0), additionalInstructions);
      ModelOutcome<ModelResponse> outcome =
          model.send(
              new ModelRequest(
                  model.settings().model(),
                  maxTokens,
                  SummaryPrompt.SYSTEM,
                  List.of(ModelMessage.user(request)),
                  List.of(),
                  new ToolChoice.Auto()));
      switch (outcome) {
        case ModelOutcome.Answered<ModelResponse> answered -> {
          String summary = SummaryPrompt.format(answered.value().text());
          if (summary.isBlank()) {
            return new Outcome.Failed(
                "the model answered without a summary (stop_reason "
                    + answered.value().stopReason()
                    + ")",
                retries);
          }
          return new Outcome.Summarized(summary, retries, messages.size() - remaining.size());
        }
        case ModelOutcome.Failed<ModelResponse> failed -> {
          ModelFailure failure = failed.failure();
          if (!failure.isPromptTooLong()) {
            return new Outcome.Failed(failure.describe(), retries);
          }
          if (retries >= MAX_PROMPT_TOO_LONG_RETRIES) {
            return new Outcome.Failed(
                "the conversation is still too long to summarize after dropping its oldest rounds "
                    + retries
                    + " times",
                retries);
          }
          Optional<List<TranscriptEntry>> shorter =
              ApiRounds.dropOldest(remaining, ApiRounds.tokenGap(failure.message()));
          if (shorter.isEmpty()) {
            return new Outcome.Failed(
                "the conversation is too long to summarize and has no older round left to drop",
                retries);
          }
          remaining = shorter.get();
          retries++;
        }
      }
    }
  }
}
