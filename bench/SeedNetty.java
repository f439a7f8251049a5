// SPDX-License-Identifier: MIT

// The seed workload on Netty 4.1's HttpRequestDecoder, for build/bench/seed (bench/seed.c has
// the protocol): each pass writes the file's bytes (an unpooled heap buffer wrapping them, no
// copy) into an EmbeddedChannel whose pipeline is one HttpRequestDecoder (a connection: one
// channel for all passes), then reads the decoded objects: per HttpRequest the method name,
// headers().get(User-Agent) and the first name of ServerCookieDecoder.STRICT.decodeAll(Cookie);
// body contents are released. Before "ready" it runs the passes for SEED_WARMUP_S seconds
// (default 5) so the JIT has compiled the hot code, as JMH's warm-up iterations do, and
// build/bench/seed asks for a warm-up on each file alone before that file's rounds.
// Built by mk/seed.mk against Debian's libnetty-java on the installed JDK.
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.netty.util.ReferenceCountUtil;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

public final class SeedNetty {
    static final class Answer {
        String method = "", ua = "", cookie = "";
        int messages;
        boolean error;
    }

    static final EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestDecoder());
    static long sink;

    // Every request of data; the answer is the last request's.
    static Answer pass(byte[] data) {
        Answer a = new Answer();
        ch.writeInbound(Unpooled.wrappedBuffer(data));
        Object o;
        while ((o = ch.readInbound()) != null) {
            if (o instanceof HttpRequest) {
                HttpRequest r = (HttpRequest) o;
                if (!r.decoderResult().isSuccess()) a.error = true;
                a.method = r.method().name();
                String ua = r.headers().get(HttpHeaderNames.USER_AGENT);
                a.ua = ua == null ? "" : ua;
                a.cookie = "";
                String c = r.headers().get(HttpHeaderNames.COOKIE);
                if (c != null) {
                    List<Cookie> cs = ServerCookieDecoder.STRICT.decodeAll(c);
                    if (!cs.isEmpty()) a.cookie = cs.get(0).name();
                }
                a.messages++;
            } else if (o instanceof HttpContent && !((HttpContent) o).decoderResult().isSuccess()) {
                a.error = true;
            }
            ReferenceCountUtil.release(o);
        }
        if (a.error) a.messages = 0;
        return a;
    }

    public static void main(String[] args) throws Exception {
        byte[][] data = new byte[args.length][];
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        for (int i = 0; i < args.length; i++) {
            data[i] = Files.readAllBytes(Paths.get(args[i]));
            Answer a = pass(data[i]);
            out.printf("answer\t%d\t%d\t%s\t%s\t%s\n", i, a.messages, a.method, a.ua, a.cookie);
        }
        double warm = Double.parseDouble(System.getenv().getOrDefault("SEED_WARMUP_S", "5"));
        long end = System.nanoTime() + (long) (warm * 1e9);
        while (System.nanoTime() < end)
            for (byte[] d : data) sink += pass(d).messages;
        out.println("ready");
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split(" ");
            int m = 0;
            if (w.length == 3 && w[0].equals("run")) {
                int i = Integer.parseInt(w[1]);
                long n = Long.parseLong(w[2]);
                for (long k = 0; k < n; k++) {
                    Answer a = pass(data[i]);
                    sink += a.method.length() + a.ua.length() + a.cookie.length();
                    m = a.messages;
                }
            } else if (w.length == 3 && w[0].equals("warm")) {
                // this file alone, as a JMH benchmark's own warm-up iterations
                int i = Integer.parseInt(w[1]);
                long stop = System.nanoTime() + (long) (Double.parseDouble(w[2]) * 1e9);
                while (System.nanoTime() < stop) m = pass(data[i]).messages;
            } else {
                System.err.println("seed-netty: bad command: " + line);
                System.exit(2);
            }
            out.println("done " + m);
            out.flush();
        }
        if (sink == 42) System.err.println();
    }
}
