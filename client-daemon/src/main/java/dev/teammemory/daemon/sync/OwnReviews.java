package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.protocol.ReviewPage;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * This daemon's caller's own changes that wait for a reviewer, and the ones a reviewer rejected, as
 * the server's reviews list said when the repository last moved ({@code <state>/reviews.json}), for
 * {@code tmem status}. The server shows a caller who does not review only their own changes, so
 * this is "yours" for everyone but a reviewer (who sees every author's).
 *
 * @param checkedAt the repository version and checksum the list was read at (the checksum alone
 *     where the transport knows no version): it is read again once the repository moved, or at the
 *     next pull while something waits, never per file
 * @param waiting changes still waiting, oldest first
 * @param rejected the newest rejected changes, oldest first (at most {@link #MAX_REJECTED})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OwnReviews(
    @JsonProperty("checked_at") String checkedAt,
    @JsonProperty("waiting") List<ReviewPage.Review> waiting,
    @JsonProperty("rejected") List<ReviewPage.Review> rejected) {

  static final String FILE_NAME = "reviews.json";

  /** How many rejections status names: the newest; older ones are in the console. */
  public static final int MAX_REJECTED = 20;

  /** The reviews list is 50 a page, oldest first; more than this many pages is not walked. */
  private static final int MAX_PAGES = 20;

  /** A state file larger than this is not read. */
  private static final long MAX_FILE_BYTES = 1024 * 1024;

  private static final ObjectMapper JSON =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  public OwnReviews {
    waiting = waiting == null ? List.of() : List.copyOf(waiting);
    rejected = rejected == null ? List.of() : List.copyOf(rejected);
  }

  /** Nothing known: never read, or a server without review. */
  public static OwnReviews none() {
    return new OwnReviews(null, List.of(), List.of());
  }

  /**
   * What the daemon kept for the project whose state is in {@code stateDir}; none if unreadable.
   */
  public static OwnReviews load(Path stateDir) {
    Path file = stateDir.resolve(FILE_NAME);
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE_BYTES) {
        return none();
      }
      OwnReviews saved = JSON.readValue(file.toFile(), OwnReviews.class);
      return saved == null ? none() : saved;
    } catch (IOException | RuntimeException unreadable) {
      return none();
    }
  }

  void save(Path stateDir) throws IOException {
    AtomicFiles.write(
        stateDir.resolve(FILE_NAME), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(this));
  }

  /**
   * The caller's waiting and rejected changes as the server lists them now, read at {@code moved}
   * (see {@link #checkedAt}): empty lists from a server without review (404); empty when the server
   * could not be asked (the next pull asks again).
   */
  static Optional<OwnReviews> read(TeamMemoryClient client, String repo, String moved) {
    Optional<List<ReviewPage.Review>> waiting = all(client, repo, ReviewPage.PENDING);
    if (waiting.isEmpty()) {
      return Optional.empty();
    }
    Optional<List<ReviewPage.Review>> rejected = all(client, repo, ReviewPage.REJECTED);
    if (rejected.isEmpty()) {
      return Optional.empty();
    }
    List<ReviewPage.Review> newest = rejected.get();
    newest = newest.subList(Math.max(0, newest.size() - MAX_REJECTED), newest.size());
    // A change decided between the two reads is in both lists: it no longer waits.
    Set<String> decided =
        rejected.get().stream().map(ReviewPage.Review::id).collect(Collectors.toSet());
    List<ReviewPage.Review> stillWaiting =
        waiting.get().stream().filter(review -> !decided.contains(review.id())).toList();
    return Optional.of(new OwnReviews(requireNonNull(moved), stillWaiting, newest));
  }

  private static Optional<List<ReviewPage.Review>> all(
      TeamMemoryClient client, String repo, String status) {
    List<ReviewPage.Review> found = new ArrayList<>();
    Optional<String> page = Optional.empty();
    for (int pages = 0; pages < MAX_PAGES; pages++) {
      switch (client.reviews(repo, status, page)) {
        case Response.Ok<ReviewPage> ok -> {
          found.addAll(ok.body().data());
          page = Optional.ofNullable(ok.body().nextPage());
          if (page.isEmpty()) {
            return Optional.of(found);
          }
        }
        case Response.NotFound<ReviewPage> none -> {
          return Optional.of(List.of());
        }
        default -> {
          return Optional.empty();
        }
      }
    }
    return Optional.of(found);
  }
}
