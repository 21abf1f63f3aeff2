package dev.teammemory.daemon.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * A failure in words a person can act on — which file and what is wrong with it — instead of an
 * exception's class name. Never a file's content: only paths and the operating system's reason.
 */
public final class FailureWords {

  private FailureWords() {}

  public static String describe(Throwable failure) {
    return switch (failure) {
      case UncheckedIOException unchecked -> describe(unchecked.getCause());
      case NoSuchFileException missing -> "no such file or folder: " + missing.getFile();
      case AccessDeniedException denied -> "permission denied: " + denied.getFile();
      case NotDirectoryException notFolder -> notFolder.getFile() + " is not a folder";
      case FileAlreadyExistsException exists -> exists.getFile() + " already exists";
      case DirectoryNotEmptyException notEmpty ->
          notEmpty.getFile() + " is a folder that is not empty";
      case FileSystemException system -> fileSystem(system);
      case CharacterCodingException coding -> "the text is not valid UTF-8";
      case IOException io when isJson(io) -> "the file is not valid JSON";
      case IOException io ->
          io.getMessage() == null || io.getMessage().isBlank()
              ? "an input/output error"
              : io.getMessage();
      case OutOfMemoryError memory -> "not enough memory";
      default -> "an internal error";
    };
  }

  private static String fileSystem(FileSystemException failure) {
    String reason = failure.getReason();
    String file = failure.getFile();
    if (reason != null && reason.toLowerCase(java.util.Locale.ROOT).contains("is a directory")) {
      return file + " is a folder, not a file";
    }
    if (file == null) {
      return reason == null ? "a file system error" : reason;
    }
    return (reason == null ? "a file system error" : reason) + ": " + file;
  }

  /** Jackson's messages quote the input they failed on, which may be a memory's content. */
  private static boolean isJson(IOException failure) {
    return failure.getClass().getName().startsWith("com.fasterxml.jackson.");
  }
}
