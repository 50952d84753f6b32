package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Kubernetes URL library in device selectors: upstream's documented examples and Go's net/url
 * error texts.
 */
class UrlLibraryTest {
  private static final DeviceSelectorCompiler COMPILER =
      DeviceSelectorCompiler.create(CompilerOptions.storedExpressions());
  private static final DeviceInput DEVICE =
      DeviceInput.builder("net.example.com").attribute("endpoint", "https://[::1]:8443/x").build();

  static Stream<Arguments> trueExpressions() {
    return Stream.of(
        t(
            "isURL",
            "isURL('https://user:pass@example.com:80/path?query=val#fragment')"
                + " && isURL('/absolute-path')"),
        t("isURL rejects", "!isURL('https://a:b:c/') && !isURL('../relative-path') && !isURL('')"),
        t(
            "getScheme",
            "url('/path').getScheme() == '' && url('https://example.com/').getScheme() == 'https'"),
        t("scheme lower-cased", "url('HTTPS://example.com/').getScheme() == 'https'"),
        t(
            "getHost",
            "url('https://example.com:80/').getHost() == 'example.com:80'"
                + " && url('https://example.com/').getHost() == 'example.com'"
                + " && url('https://[::1]:80/').getHost() == '[::1]:80'"
                + " && url('https://[::1]/').getHost() == '[::1]' && url('/path').getHost() == ''"),
        t(
            "getHostname",
            "url('https://example.com:80/').getHostname() == 'example.com'"
                + " && url('https://127.0.0.1:80/').getHostname() == '127.0.0.1'"
                + " && url('https://[::1]:80/').getHostname() == '::1'"
                + " && url('/path').getHostname() == ''"),
        t(
            "getPort",
            "url('https://example.com:80/').getPort() == '80'"
                + " && url('https://example.com/').getPort() == '' && url('/path').getPort() == ''"),
        t(
            "getEscapedPath",
            "url('https://example.com/path').getEscapedPath() == '/path'"
                + " && url('https://example.com/path with spaces/').getEscapedPath()"
                + " == '/path%20with%20spaces/'"
                + " && url('https://example.com').getEscapedPath() == ''"),
        t(
            "getEscapedPath keeps sub-delims",
            "url('https://example.com/a!b').getEscapedPath() == '/a!b'"),
        t("fragment is not path", "url('https://example.com/a#frag').getEscapedPath() == '/a'"),
        t(
            "getQuery",
            "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()"
                + " == {'k1': ['a'], 'k2': ['b', 'c']}"),
        t(
            "getQuery unescapes",
            "url('https://example.com/path?key with spaces=value with spaces').getQuery()"
                + " == {'key with spaces': ['value with spaces']}"
                + " && url('https://example.com/?a=b+c%21').getQuery() == {'a': ['b c!']}"),
        t(
            "getQuery empty",
            "url('https://example.com/path?').getQuery() == {}"
                + " && url('https://example.com/path').getQuery() == {}"),
        t(
            "opaque",
            "url('mailto:x@y').getScheme() == 'mailto' && url('mailto:x@y').getHost() == ''"),
        t(
            "on an attribute",
            "url(device.attributes['net.example.com'].endpoint).getPort() == '8443'"),
        t("type", "type(url('/x')) == kubernetes.URL"));
  }

  static Arguments t(String name, String expression) {
    return Arguments.of(name, expression);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("trueExpressions")
  void evaluatesToTrue(String name, String expression) throws Exception {
    CompilationResult r = COMPILER.compile(expression);
    assertThat(r.error()).as(expression).isEmpty();
    assertThat(r.orElseThrow().matches(DEVICE)).as(expression).isTrue();
  }

  static Stream<Arguments> runtimeErrors() {
    String prefix = "URL parse error during conversion from string: parse ";
    return Stream.of(
        t("url('https://a:b:c/')", prefix + "\"https://a:b:c/\": invalid port \":c\" after host"),
        t("url('../relative-path')", prefix + "\"../relative-path\": invalid URI for request"),
        t("url('')", prefix + "\"\": empty url"),
        t(
            "url('https://exa mple.com/')",
            prefix + "\"https://exa mple.com/\": invalid character \" \" in host name"),
        t("url('/a%zz')", prefix + "\"/a%zz\": invalid URL escape \"%zz\""),
        t(
            "url('https://example.com/?q#%zz')",
            prefix + "\"https://example.com/?q#%zz\": invalid URL escape \"%zz\""),
        t("url('https://[::1/')", prefix + "\"https://[::1/\": missing ']' in host"),
        t("url(':x')", prefix + "\":x\": missing protocol scheme"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runtimeErrors")
  void failsAtRunTime(String expression, String message) {
    CompiledSelector selector = COMPILER.compile(expression + " == " + expression).orElseThrow();
    assertThatThrownBy(() -> selector.matches(DEVICE))
        .isInstanceOf(CelEvaluationException.class)
        .hasMessage(message);
  }
}
