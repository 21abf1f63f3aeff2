package dev.teammemory.server.console;

import java.util.List;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.safety.Safelist;

/**
 * Memory is untrusted text, written by agents from whatever they read: it is rendered as CommonMark
 * with raw HTML escaped, then sanitised by an allow-list (no script, no event handler, no style,
 * links only to http, https and mailto), and images become links, so that a page never fetches
 * anything a memory names. This is the only HTML the console's templates show unescaped.
 */
final class Markdown {

  private static final List<org.commonmark.Extension> EXTENSIONS =
      List.of(TablesExtension.create());
  private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
  private static final HtmlRenderer RENDERER =
      HtmlRenderer.builder().extensions(EXTENSIONS).escapeHtml(true).sanitizeUrls(true).build();
  private static final Safelist SAFE =
      Safelist.relaxed()
          .removeTags("img")
          .removeProtocols("a", "href", "ftp")
          .addAttributes("a", "rel")
          .addEnforcedAttribute("a", "rel", "nofollow noopener noreferrer");

  private Markdown() {}

  /** The markdown as safe HTML. */
  static String toSafeHtml(String markdown) {
    String rendered = RENDERER.render(PARSER.parse(markdown));
    Document document = Jsoup.parseBodyFragment(rendered);
    for (Element image : document.select("img")) {
      String source = image.attr("src");
      String alt = image.attr("alt");
      Element link = new Element("a").attr("href", source);
      link.text("image: " + (alt.isBlank() ? source : alt) + " (not loaded)");
      image.replaceWith(link);
    }
    return Jsoup.clean(document.body().html(), SAFE);
  }
}
