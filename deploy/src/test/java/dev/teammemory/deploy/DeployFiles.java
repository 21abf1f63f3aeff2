package dev.teammemory.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The files under test: this module's folder (the working directory under surefire), the repository
 * around it, and parsers for what they hold.
 */
final class DeployFiles {

  /** Quarkus settings the deployment files may set; each is a documented Quarkus property. */
  static final Set<String> QUARKUS_SETTINGS =
      Set.of(
          "QUARKUS_HTTP_PORT",
          "QUARKUS_DATASOURCE_JDBC_URL",
          "QUARKUS_DATASOURCE_USERNAME",
          "QUARKUS_DATASOURCE_PASSWORD",
          "QUARKUS_DATASOURCE_JDBC_MAX_SIZE",
          "QUARKUS_LOG_LEVEL",
          "QUARKUS_LOG_CONSOLE_JSON");

  private static final Pattern SERVER_SETTING = Pattern.compile("\\bTMEM_[A-Z0-9_]*[A-Z0-9]\\b");

  private DeployFiles() {}

  /** {@code deploy/}: surefire runs the tests in the module's folder. */
  static Path deploy() {
    Path here = Path.of("").toAbsolutePath();
    if (!Files.isDirectory(here.resolve("kubernetes"))) {
      throw new IllegalStateException("run from the deploy module's folder, not " + here);
    }
    return here;
  }

  static Path repository() {
    return deploy().getParent();
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + file, e);
    }
  }

  /** Every document of a (multi-document) YAML file, parsed safely (no custom types). */
  static List<YamlNode> yamlDocuments(Path file) {
    Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
    List<YamlNode> documents = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file)) {
      for (Object document : yaml.loadAll(in)) {
        if (document != null) {
          documents.add(new YamlNode(file.getFileName() + ":", document));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + file, e);
    }
    return documents;
  }

  static YamlNode yaml(Path file) {
    List<YamlNode> documents = yamlDocuments(file);
    if (documents.size() != 1) {
      throw new IllegalArgumentException(
          file + " holds " + documents.size() + " YAML documents, not one");
    }
    return documents.getFirst();
  }

  /** Files of a folder whose names end with {@code suffix}, sorted. */
  static List<Path> files(Path folder, String suffix) {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(file -> file.getFileName().toString().endsWith(suffix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("could not list " + folder, e);
    }
  }

  /**
   * The {@code TMEM_*} settings the server reads: every name its main sources mention (each
   * {@code @ConfigMapping} documents its environment variables, the embedded database reads {@code
   * TMEM_DATA_DIR} directly).
   */
  static Set<String> serverSettings() {
    Set<String> names = new TreeSet<>();
    Path sources = repository().resolve("server/src/main");
    try (Stream<Path> files = Files.walk(sources)) {
      files
          .filter(Files::isRegularFile)
          .filter(
              file -> file.toString().endsWith(".java") || file.toString().endsWith(".properties"))
          .forEach(
              file -> {
                Matcher matcher = SERVER_SETTING.matcher(read(file));
                while (matcher.find()) {
                  names.add(matcher.group());
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the server's sources in " + sources, e);
    }
    return names;
  }

  /** Of these environment variables, the ones the server does not act on. */
  static Set<String> unknownToTheServer(Set<String> names) {
    Set<String> known = serverSettings();
    Set<String> unknown = new TreeSet<>(names);
    unknown.removeIf(name -> QUARKUS_SETTINGS.contains(name) || known.contains(name));
    return unknown;
  }
}
