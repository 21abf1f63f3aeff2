package dev.teammemory.daemon.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads text files that people and agents made, as the reference client reads them: bytes that are
 * not UTF-8 become U+FFFD instead of failing the read, never more than the caller needs is read,
 * and only regular files are opened (a FIFO would block the reader; a folder is not text).
 */
public final class TextFiles {

  /**
   * The start of a file as text.
   *
   * @param complete whether the whole file was read
   * @param size the file's size in bytes when it was read
   */
  public record Head(String text, boolean complete, long size) {}

  private TextFiles() {}

  /** A reader that decodes leniently. */
  public static Reader reader(Path file) throws IOException {
    return new InputStreamReader(open(file), lenient());
  }

  /** The whole file when it is at most {@code maxBytes}, else its first {@code maxBytes}. */
  public static Head head(Path file, int maxBytes) throws IOException {
    byte[] bytes;
    long size;
    try (InputStream in = open(file)) {
      bytes = in.readNBytes(maxBytes);
      size = Math.max(Files.size(file), bytes.length);
      boolean complete = bytes.length < maxBytes || in.read() < 0;
      return new Head(decode(bytes, complete), complete, size);
    }
  }

  /** The first {@code maxBytes} bytes, or fewer when the file is shorter. */
  public static byte[] headBytes(Path file, int maxBytes) throws IOException {
    try (InputStream in = open(file)) {
      return in.readNBytes(maxBytes);
    }
  }

  /**
   * A whole file that is expected to be small, decoded leniently.
   *
   * @throws FileSystemException when it is larger than {@code maxBytes}: reading it whole would
   *     take memory nobody meant to spend
   */
  public static String read(Path file, int maxBytes) throws IOException {
    Head head = head(file, maxBytes);
    if (!head.complete()) {
      throw new FileSystemException(
          file.toString(), null, "larger than " + maxBytes + " bytes, too large to read whole");
    }
    return head.text();
  }

  /** {@link #read} for a file that may not exist. */
  public static Optional<String> readIfPresent(Path file, int maxBytes) throws IOException {
    try {
      return Optional.of(read(file, maxBytes));
    } catch (NoSuchFileException absent) {
      return Optional.empty();
    }
  }

  /**
   * A file as text that can be written back without changing a byte: empty when it is larger than
   * {@code maxBytes} or not valid UTF-8. Callers that rewrite files use this, so a file they cannot
   * hold exactly is left as it is.
   */
  public static Optional<String> readExactly(Path file, int maxBytes) throws IOException {
    return strictHead(file, maxBytes).filter(Head::complete).map(Head::text);
  }

  /**
   * {@link #head}, but empty instead of a U+FFFD when what was read is not valid UTF-8 (a sequence
   * the cut at {@code maxBytes} left incomplete is dropped, not counted against the file).
   */
  public static Optional<Head> strictHead(Path file, int maxBytes) throws IOException {
    try (InputStream in = open(file)) {
      byte[] bytes = in.readNBytes(maxBytes);
      long size = Math.max(Files.size(file), bytes.length);
      boolean complete = bytes.length < maxBytes || in.read() < 0;
      return decode(bytes, complete, strict()).map(text -> new Head(text, complete, size));
    }
  }

  /**
   * Bytes as text; an incomplete sequence at the end of a cut-off read is dropped, not replaced.
   */
  private static String decode(byte[] bytes, boolean complete) {
    return decode(bytes, complete, lenient()).orElseThrow();
  }

  /** Empty when the decoder reports malformed input; a lenient one never does. */
  private static Optional<String> decode(byte[] bytes, boolean complete, CharsetDecoder decoder) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length + 1);
    if (decoder.decode(in, out, complete).isError()) {
      return Optional.empty();
    }
    if (complete && decoder.flush(out).isError()) {
      return Optional.empty();
    }
    return Optional.of(out.flip().toString());
  }

  /** Opens a regular file; anything else (a folder, a FIFO, a device) is refused, not opened. */
  private static InputStream open(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      throw new FileSystemException(file.toString(), null, "Is a directory");
    }
    if (Files.exists(file) && !Files.isRegularFile(file)) {
      throw new FileSystemException(file.toString(), null, "not a regular file");
    }
    return Files.newInputStream(file);
  }

  private static CharsetDecoder strict() {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }

  private static CharsetDecoder lenient() {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE);
  }
}
