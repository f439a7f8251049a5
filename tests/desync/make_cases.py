#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The anchor's desync cases as simdhttp test data (issue 36 item 5).

The anchor is AWS's http_desync_guardian: its YAML suite gives per request a method, a target, a
version, a list of fields and the tier and reason its classifier must give. The table below holds
those facts in our own form, one tuple per case:

    (name, TIER, anchor reason, method, target, version, [(field name, field value), ...])

and this script turns each into tests/desync/cases/<name>.http and the whole table into
tests/desync/expected.txt. Where the facts come from (repository, commit) is in SOURCE.

The bytes of a case are what the anchor's own test run builds from the same fields when it
checks its raw-request reading:

    method SP target SP version CRLF
    name ":" SP value CRLF          (each field, in order; nothing trimmed or added)
    CRLF

with no body. So an empty version still leaves the space before the CRLF, an empty name gives a
line that starts with ':', and a CR or LF inside a name, value or target goes out as it is (that
is the point of several cases).

The strings are text, and the files hold their UTF-8 encoding, as the anchor's test run does: it
reads a YAML escape like \\xa0 as the character U+00A0 and writes that as the two bytes C2 A0.
So "\\u00a0" below is the two bytes C2 A0, never the one byte A0; "\\x01" is the one byte 01.

usage: make_cases.py          write cases/*.http and expected.txt (cases/ emptied first)
       make_cases.py --check  compare them with what is on disk; exit 1 on any difference
"""
import os
import sys

SOURCE = ("github.com/aws/http-desync-guardian", "7dd6f37171f0a8428d259f2631aee5e7b01a1d64",
          "2020-12-31")

COMPLIANT, ACCEPTABLE, AMBIGUOUS, SEVERE = "COMPLIANT", "ACCEPTABLE", "AMBIGUOUS", "SEVERE"

# Fields of the browser-like requests (the anchor's real-life and more-compliant files). Each
# value keeps the leading space the anchor's cases have: with ": " after the name the line holds
# two spaces before the value.
UA = ("User-Agent", " Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:68.0) Gecko/20100101 Firefox/68.0")
ACCEPT = ("Accept", " text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
LANGUAGE = ("Accept-Language", " en-US,en;q=0.5")
ENCODING = ("Accept-Encoding", " gzip, deflate")
CONNECTION = ("Connection", " keep-alive")
UPGRADE = ("Upgrade-Insecure-Requests", " 1")
FORM = ("Content-Type", " application/x-www-form-urlencoded")
NUMBERED = [("Header-Name-%d" % i, "Header-Value-Some-Ok-String") for i in range(1, 30)]

# The cases, grouped by the anchor file they come from (a string row names the file).
# Each name is ours; it says what is odd in the bytes.
CASES = [
    "from tests/edge-cases.yaml",
    ("custom-ctl-then-cl-ctl", SEVERE, "BadContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header", "Non-Rfc Compliant\x12"), ("Content-Length", "1000\x11")]),
    ("custom-ctl-then-te-del", SEVERE, "BadTransferEncoding", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header", "Non-Rfc Compliant\x11"), ("Transfer-Encoding", "chunked\x7f")]),
    ("tab-names-nul-in-value", SEVERE, "BadHeader", "PUT", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header\t", "\x11\x12 But then \x00 which is bad"),
         ("Transfer-Encoding\t", "chunked")]),
    ("get-te-after-custom-ctl", AMBIGUOUS, "UndefinedTransferEncodingSemantics", "GET", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header", "Non Rfc -Compliant\x01"), ("Transfer-Encoding", "chunked")]),
    ("head-cl-after-custom-ctl", AMBIGUOUS, "UndefinedContentLengthSemantics", "HEAD", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header", "Non Rfc Compliant\x01"), ("Content-Length", "9000")]),
    ("te-c1-and-cl-dollar", SEVERE, "BadTransferEncoding", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header", "\x11Rfc Compliant"), ("Transfer-Encoding", "chunked\u0080"),
         ("Content-Length", "$9000")]),
    ("tab-uri-te-c1-and-cl-dollar", SEVERE, "BadTransferEncoding", "POST", "/foo/bar\t/baz", "HTTP/1.1",
        [("Some-Custom-Header", "\x11Rfc Compliant"), ("Transfer-Encoding", "chunked\u0080"),
         ("Content-Length", "$9000")]),
    ("get-tab-uri-and-cl", AMBIGUOUS, "UndefinedContentLengthSemantics", "GET", "/foo/bar\t/baz", "HTTP/1.1",
        [("Some-Custom-Header", "Non Rfc -Compliant\x01"), ("Content-Length", "9000")]),
    "from tests/rfc-compliant.yaml",
    ("get-no-fields", COMPLIANT, "Compliant", "GET", "/foo/bar", "HTTP/1.1", []),
    ("post-te-chunked", COMPLIANT, "Compliant", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "chunked")]),
    ("put-cl", COMPLIANT, "Compliant", "PUT", "/foo/bar", "HTTP/1.1", [("Content-Length", "1000")]),
    ("te-chunked-obs-text-value", COMPLIANT, "Compliant", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "chunked"),
         ("My-Custom-Header", "\t\t\tCustom-Value;`\u0085\u0093\u00a0")]),
    ("tchar-name-obs-text-value", COMPLIANT, "Compliant", "POST", "/foo/bar", "HTTP/1.1",
        [("My-Custom-Header.!#$%&'*+^_`|~0123456789", "\t\t\tCustom-Value;`\u0085\u0093\u00a0")]),
    ("underscore-name", COMPLIANT, "Compliant", "POST", "/foo/bar", "HTTP/1.1",
        [("My_Custom_Header", "\t\t\tCustom-Value;`\u0085\u0093\u00a0")]),
    ("dot-name", COMPLIANT, "Compliant", "POST", "/foo/bar", "HTTP/1.1",
        [("My.Custom.Header", "\t\t\tCustom-Value;`\u0085\u0093\u00a0")]),
    ("digits-name", COMPLIANT, "Compliant", "POST", "/foo/bar", "HTTP/1.1",
        [("My-Custom-Header-0987654321", "\t\t\tCustom-Value;`\u0085\u0093\u00a0")]),
    ("te-five-lines", COMPLIANT, "Compliant", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "gzip"), ("Transfer-Encoding", "deflate"),
         ("Transfer-Encoding", "identity"), ("Transfer-Encoding", "compress"),
         ("Transfer-Encoding", "chunked")]),
    ("te-list-ows", COMPLIANT, "Compliant", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "gzip , deflate , \tidentity\t, compress\t, chunked")]),
    ("te-params-ows", COMPLIANT, "Compliant", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "   gzip   ;   "), ("Transfer-Encoding", "deflate\t\t;\t\t"),
         ("Transfer-Encoding", "\t\t\t\tchunked;custom_param;\t\t\t\t")]),
    ("uri-all-punctuation", COMPLIANT, "Compliant", "POST", "/user:pass123@www.example.com:8080/site/index.php?action=login%20++~!@#$%^&*()_+:<>?,./;'[]{}`~\"|&prev=index#form", "HTTP/1.1",
        [("Accept", "*/*")]),
    ("uri-utf8-path", COMPLIANT, "Compliant", "GET", "/странные-символы/поддерживаются", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-empty", COMPLIANT, "Compliant", "GET", "", "HTTP/1.1", [("X-Forwarded-For", "1.1.1.1")]),
    "from tests/acceptable.yaml",
    ("name-trailing-space", ACCEPTABLE, "NonCompliantHeader", "PUT", "/foo/bar", "HTTP/1.1",
        [("x-my-custom-header ", "some value"), ("x-my-second-custom-header", "some value")]),
    ("name-trailing-space-with-te", ACCEPTABLE, "NonCompliantHeader", "PUT", "/foo/bar", "HTTP/1.1",
        [("x-my-custom-header ", "some value"), ("Transfer-Encoding", "chunked")]),
    ("name-leading-ctl-with-te", ACCEPTABLE, "NonCompliantHeader", "PUT", "/foo/bar", "HTTP/1.1",
        [("\x01x-my-custom-header", "some value"), ("Transfer-Encoding", "chunked")]),
    ("name-trailing-space-with-cl", ACCEPTABLE, "NonCompliantHeader", "PUT", "/foo/bar", "HTTP/1.1",
        [("x-my-custom-header ", "some value"), ("Content-Length", "10000")]),
    ("get-cl-zero", ACCEPTABLE, "GetHeadZeroContentLength", "GET", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "0")]),
    ("head-cl-zero", ACCEPTABLE, "GetHeadZeroContentLength", "HEAD", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "0")]),
    ("version-0-9", ACCEPTABLE, "NonCompliantVersion", "GET", "/foo/bar", "HTTP/0.9",
        [("X-My-Header", "some value")]),
    ("version-empty", ACCEPTABLE, "NonCompliantVersion", "GET", "/foo/bar", "",
        [("X-My-Header", "some value")]),
    ("version-1-2", ACCEPTABLE, "NonCompliantVersion", "GET", "/foo/bar", "HTTP/1.2",
        [("X-My-Header", "some value")]),
    "from tests/ambiguous.yaml",
    ("te-name-trailing-space", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding ", "chunked")]),
    ("te-name-trailing-tab", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding\t", "chunked")]),
    ("te-name-leading-ctl", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("\x01Transfer-Encoding", "chunked")]),
    ("te-name-two-leading-ctls", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("\x01\x01Transfer-Encoding", "chunked")]),
    ("cl-name-two-leading-ctls", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("\x01\x01Content-Length", "1")]),
    ("cl-name-leading-ctl", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("\x01Content-Length", "1")]),
    ("te-name-inner-space", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer- Encoding", "chunked")]),
    ("te-name-underscore", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer_Encoding", "chunked")]),
    ("cl-name-underscore", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Content_Length", "1000")]),
    ("cl-twice-equal", AMBIGUOUS, "DuplicateContentLength", "PUT", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000"), ("Content-Length", "1000")]),
    ("te-chunked-and-cl", AMBIGUOUS, "BothTeClPresent", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "chunked"), ("Content-Length", "100")]),
    ("te-gzip-and-cl", AMBIGUOUS, "BothTeClPresent", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "gzip"), ("Content-Length", "100")]),
    ("get-cl", AMBIGUOUS, "UndefinedContentLengthSemantics", "GET", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000")]),
    ("get-te", AMBIGUOUS, "UndefinedTransferEncodingSemantics", "GET", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "chunked")]),
    ("head-cl", AMBIGUOUS, "UndefinedContentLengthSemantics", "HEAD", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000")]),
    ("head-te", AMBIGUOUS, "UndefinedTransferEncodingSemantics", "HEAD", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "chunked")]),
    ("te-name-space-and-cl", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding ", "chunked"), ("Content-Length", "1000")]),
    ("te-name-leading-space-and-cl", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [(" Transfer-Encoding", "chunked"), ("Content-Length", "1000")]),
    ("te-cl-names-leading-space", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [(" Transfer-Encoding", "chunked"), (" Content-Length", "1000")]),
    ("te-cl-names-trailing-space", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding ", "chunked"), ("Content-Length ", "1000")]),
    ("empty-name-and-cl", AMBIGUOUS, "EmptyHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("", "chunked"), ("Content-Length", "1000")]),
    ("colon-name-and-cl", AMBIGUOUS, "EmptyHeader", "POST", "/foo/bar", "HTTP/1.1",
        [(":SomeHeader:Transfer-Encoding:", "chunked"), ("Content-Length", "1000")]),
    ("blank-name-and-cl", AMBIGUOUS, "EmptyHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("   \t\t  ", "chunked"), ("Content-Length", "1000")]),
    ("http10-te", AMBIGUOUS, "UndefinedTransferEncodingSemantics", "POST", "/foo/bar", "HTTP/1.0",
        [("Transfer-Encoding", "chunked")]),
    ("http09-te", AMBIGUOUS, "UndefinedTransferEncodingSemantics", "POST", "/foo/bar", "HTTP/0.9",
        [("Transfer-Encoding", "chunked")]),
    ("http09-cl", AMBIGUOUS, "UndefinedContentLengthSemantics", "POST", "/foo/bar", "HTTP/0.9",
        [("Content-Length", "100")]),
    ("no-version-te", AMBIGUOUS, "UndefinedTransferEncodingSemantics", "POST", "/foo/bar", "",
        [("Transfer-Encoding", "chunked")]),
    ("no-version-cl", AMBIGUOUS, "UndefinedContentLengthSemantics", "POST", "/foo/bar", "",
        [("Content-Length", "100")]),
    ("te-name-long-s", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Tran\u017ffer-Encoding", "chunked")]),
    ("te-name-dotless-i", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encod\u0131ng", "chunked")]),
    ("te-name-triple-dash", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer---Encoding", "chunked")]),
    ("te-name-triple-underscore", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer___Encoding", "chunked")]),
    ("te-name-leading-spaces", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("   Transfer-Encoding", "chunked")]),
    ("cl-name-trailing-spaces", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length   ", "1000")]),
    ("te-name-horizontal-bar", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer\u2015Encoding", "chunked")]),
    ("te-name-trailing-c1", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding\u0088", "chunked")]),
    ("cl-name-leading-nbsp", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("\u00a0Content-Length", "100")]),
    "from tests/bad-header-characters.yaml",
    ("te-name-leading-ctl-after-custom", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header", "Non-Rfc Compliant"), ("\x01Transfer-Encoding", "chunked")]),
    ("te-value-leading-ctl", SEVERE, "BadTransferEncoding", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "\x01chunked")]),
    ("te-value-trailing-ctl", SEVERE, "BadTransferEncoding", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "chunked\x01")]),
    ("te-value-leading-nbsp", SEVERE, "BadTransferEncoding", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "\u00a0chunked")]),
    ("te-value-trailing-nbsp", SEVERE, "BadTransferEncoding", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "chunked\u00a0")]),
    ("te-name-trailing-ctl-after-custom", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header", "Non-Rfc Compliant"), ("Transfer-Encoding\x01", "chunked")]),
    ("cl-name-leading-ctl-after-custom", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header", "Non-Rfc Compliant"), ("\x01Content-Length", "1000")]),
    ("cl-name-trailing-ctl-after-custom", AMBIGUOUS, "SuspiciousHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header", "Non-Rfc Compliant"), ("Content-Length\x01", "1000")]),
    ("cl-value-leading-ctl", SEVERE, "BadContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "\x011000")]),
    ("cl-value-trailing-ctl", SEVERE, "BadContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000\x01")]),
    ("cl-value-trailing-nbsp", SEVERE, "BadContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000\u00a0")]),
    ("custom-name-trailing-ctl-with-te", ACCEPTABLE, "NonCompliantHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header\x01", "Non-Rfc Compliant"), ("Transfer-Encoding", "chunked")]),
    ("custom-name-leading-ctl-with-te", ACCEPTABLE, "NonCompliantHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("\x01Some-Custom-Header", "Non-Rfc Compliant"), ("Transfer-Encoding", "chunked")]),
    ("custom-value-leading-ctl-with-te", ACCEPTABLE, "NonCompliantHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header", "\x01Non-Rfc Compliant"), ("Transfer-Encoding", "chunked")]),
    ("custom-value-trailing-ctl-with-te", ACCEPTABLE, "NonCompliantHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Custom-Header", "Non-Rfc Compliant\x01"), ("Transfer-Encoding", "chunked")]),
    "from tests/more-compliant-tests.yaml",
    ("browser-put-cl-trailing-ows", COMPLIANT, "Compliant", "PUT", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, CONNECTION, UPGRADE, ("Content-Length", " 22220  ")]),
    ("browser-put-many-fields", COMPLIANT, "Compliant", "PUT", "/test.html", "HTTP/1.1",
        [UA, UPGRADE, ("Content-Length", " 22220  "), *NUMBERED]),
    ("browser-put-te", COMPLIANT, "Compliant", "PUT", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, CONNECTION, UPGRADE, ("Transfer-Encoding", " chunked")]),
    ("browser-post-query-te", COMPLIANT, "Compliant", "POST", "/test.html?a=b&b=c&%dd=%ee", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " chunked")]),
    ("browser-post-cl", COMPLIANT, "Compliant", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE, ("Content-Length", " 5")]),
    ("browser-post-te-gzip-chunked", COMPLIANT, "Compliant", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " gzip, chunked")]),
    ("browser-post-cl-te-text-in-value", COMPLIANT, "Compliant", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE, ("Content-Length", " 4000000"),
         ("X-test", "Transfer-Encoding: chunked")]),
    ("browser-post-te-three-codings", COMPLIANT, "Compliant", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " deflate, identity, chunked")]),
    ("browser-post-te-five-lines", COMPLIANT, "Compliant", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE, ("Transfer-Encoding", " gzip"),
         ("Transfer-Encoding", " deflate"), ("Transfer-Encoding", " identity"),
         ("Transfer-Encoding", " compress"), ("Transfer-Encoding", " chunked")]),
    ("browser-post-te-params", COMPLIANT, "Compliant", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " \t\t\t\tchunked;custom_param;\t\t\t\t")]),
    "from tests/severe.yaml",
    ("cl-two-values", SEVERE, "MultipleContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000"), ("Content-Length", "100")]),
    ("cl-comma-list", SEVERE, "BadContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000,1000")]),
    ("cl-space-list", SEVERE, "BadContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000 1000")]),
    ("cl-decimal-point", SEVERE, "BadContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000.1000")]),
    ("cl-overflow-64", SEVERE, "BadContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "18446744073709551616")]),
    ("te-xchunked", SEVERE, "BadTransferEncoding", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "xchunked")]),
    ("te-value-trailing-ctl-11", SEVERE, "BadTransferEncoding", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "chunked\x11")]),
    ("cl-value-trailing-ctl-11", SEVERE, "BadContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000\x11")]),
    ("te-chunked-twice", SEVERE, "MultipleTransferEncodingChunked", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")]),
    ("te-chunked-list-twice", SEVERE, "MultipleTransferEncodingChunked", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding", "chunked,chunked")]),
    ("value-crlf-and-lf-fold", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000"),
         ("Some-Custom-Header", "Multi-line values\r\n are \n deprecated. E.g. it may contain \n Transfer-Encoding: chunked\r\n")]),
    ("value-lf-fold", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000"),
         ("Some-Custom-Header", "Multi-line values\n are \n deprecated. E.g. it may contain \n Transfer-Encoding: chunked")]),
    ("value-bare-cr", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000"),
         ("Some-Custom-Header", "Parser error\r must not contain\r symbols.")]),
    ("value-bare-lf", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length", "1000"),
         ("Some-Custom-Header", "Parser error\n must not contain\n symbols.")]),
    ("name-trailing-cr", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Bad-Header\r", "1000")]),
    ("name-trailing-lf", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Bad-Header\n", "Content-Length:1000\r\n Transfer-Encoding: chunked"),
         ("Content-Length", "100")]),
    ("name-trailing-nul", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Bad-Header\x00", "1000")]),
    ("value-cr-then-cl", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Bad-Header", "value\rcontent-length: 1000"), ("Content-Length", "100")]),
    ("value-lf-then-cl", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Bad-Header", "value\n content-length: 1000"), ("Content-Length", "100")]),
    ("value-nul-then-cl", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Bad-Header", "value\x00content-length: 1000"), ("Content-Length", "100")]),
    ("name-leading-nul", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("\x00Some-Bad-Header", "value"), ("Content-Length", "100")]),
    ("value-leading-nul", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Bad-Header", "\x00value"), ("Content-Length", "100")]),
    ("value-trailing-nul", SEVERE, "BadHeader", "POST", "/foo/bar", "HTTP/1.1",
        [("Some-Bad-Header", "value\x00"), ("Content-Length", "100")]),
    ("cl-name-space-differing", SEVERE, "MultipleContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [("Content-Length ", "100"), ("Content-Length", "1000")]),
    ("cl-name-leading-space-differing", SEVERE, "MultipleContentLength", "POST", "/foo/bar", "HTTP/1.1",
        [(" Content-Length", "100"), ("Content-Length", "1000")]),
    ("te-name-space-chunked-twice", SEVERE, "MultipleTransferEncodingChunked", "POST", "/foo/bar", "HTTP/1.1",
        [("Transfer-Encoding ", "chunked"), ("Transfer-Encoding", "chunked")]),
    ("method-underscore-ctl", SEVERE, "BadMethod", "bad_method\x01", "/foo/bar", "HTTP/1.1",
        [("Host", "localhost")]),
    "from tests/uri-specific-test-cases.yaml",
    ("uri-tab", AMBIGUOUS, "AmbiguousUri", "GET", "/endpoint_a\tHTTP/1.1", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("version-trailing-space", ACCEPTABLE, "NonCompliantVersion", "GET", "/endpoint_a", "HTTP/1.1 ",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-ctl", AMBIGUOUS, "AmbiguousUri", "GET", "/endpoint_a\x01HTTP/1.1", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-space-in-query", ACCEPTABLE, "SpaceInUri", "GET", "/endpoint_a?param=not escaped spaces", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("version-twice", SEVERE, "BadVersion", "GET", "/endpoint_a", "HTTP/1.1 HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-bare-cr", SEVERE, "BadUri", "GET", "/endpoint_a\rHTTP/1.1", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-bare-lf", SEVERE, "BadUri", "GET", "/endpoint_a\nHTTP/1.1", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-smuggled-request", SEVERE, "BadUri", "GET", "/endpoint_a\tHTTP/1.1\r\nHost:localhost\r\n\r\nGET\t/endpoint_b\t", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-nul", SEVERE, "BadUri", "GET", "/endpoint_a\x00HTTP/1.1", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-leading-nul", SEVERE, "BadUri", "GET", "\x00/endpoint_aHTTP/1.1", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-pct-09", COMPLIANT, "Compliant", "GET", "/path-%09-uri", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-pct-20", COMPLIANT, "Compliant", "GET", "/path-%20-uri", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-pct-0d", COMPLIANT, "Compliant", "GET", "/path-%0D-uri", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    ("uri-pct-0a", COMPLIANT, "Compliant", "GET", "/path-%0A-uri", "HTTP/1.1",
        [("X-Forwarded-For", "1.1.1.1")]),
    "from tests/real-life-test-cases.yaml",
    ("browser-get-cl", AMBIGUOUS, "UndefinedContentLengthSemantics", "GET", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, CONNECTION, UPGRADE, ("Content-Length", " 22")]),
    ("browser-get-te", AMBIGUOUS, "UndefinedTransferEncodingSemantics", "GET", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, CONNECTION, UPGRADE, ("Transfer-Encoding", " chunked")]),
    ("browser-http10-te", AMBIGUOUS, "UndefinedTransferEncodingSemantics", "POST", "/test.html", "HTTP/1.0",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " chunked")]),
    ("browser-cl-twice-equal", AMBIGUOUS, "DuplicateContentLength", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE, ("Content-Length", " 5"),
         ("Content-Length", " 5")]),
    ("browser-te-twice-and-cl", SEVERE, "MultipleTransferEncodingChunked", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " chunked"), ("Transfer-Encoding", " chunked"),
         ("Content-Length", " 4")]),
    ("browser-cl-and-te", AMBIGUOUS, "BothTeClPresent", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE, ("Content-Length", " 4"),
         ("Transfer-Encoding", " chunked")]),
    ("browser-value-nul", SEVERE, "BadHeader", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ("Bad-Accept-Encoding", " gzip, \x00deflate"), FORM, CONNECTION,
         UPGRADE, ("Transfer-Encoding", " chunked"), ("Content-Length", " 4")]),
    ("browser-te-name-leading-nul", SEVERE, "BadHeader", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE, ("Content-Length", " 4"),
         ("\x00Transfer-Encoding", " chunked")]),
    ("browser-value-cr-te", SEVERE, "BadHeader", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE, ("Content-Length", " 4"),
         ("X-test", " x\rTransfer-Encoding: chunked")]),
    ("browser-te-name-trailing-tab", AMBIGUOUS, "SuspiciousHeader", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding\t", " chunked"), ("Content-Length", " 4")]),
    ("browser-te-name-leading-cr", SEVERE, "BadHeader", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("\rTransfer-Encoding", " chunked"), ("Content-Length", " 4")]),
    ("browser-te-name-leading-cr-no-cl", SEVERE, "BadHeader", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("\rTransfer-Encoding", " chunked")]),
    ("browser-cl-name-leading-cr", SEVERE, "BadHeader", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE, ("\rContent-Length", " 1000"),
         ("Content-Length", " 100")]),
    ("browser-te-chunk", SEVERE, "BadTransferEncoding", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " chunk"), ("Content-Length", " 4")]),
    ("browser-te-deflate-and-cl", AMBIGUOUS, "BothTeClPresent", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " deflate"), ("Content-Length", " 4")]),
    ("browser-te-xchunked-and-cl", SEVERE, "BadTransferEncoding", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " xchunked"), ("Content-Length", " 4")]),
    ("browser-te-five-lines-and-cl", AMBIGUOUS, "BothTeClPresent", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE, ("Transfer-Encoding", " gzip"),
         ("Transfer-Encoding", " deflate"), ("Transfer-Encoding", " identity"),
         ("Transfer-Encoding", " compress"), ("Transfer-Encoding", " chunked"),
         ("Content-Length", " 4")]),
    ("browser-te-params-and-cl", AMBIGUOUS, "BothTeClPresent", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " \t\t\t\tchunked;custom_param;\t\t\t\t"),
         ("Content-Length", " 4")]),
    ("browser-te-chunked-list-twice-and-cl", SEVERE, "MultipleTransferEncodingChunked", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " chunked,chunked"), ("Content-Length", " 4")]),
    ("browser-te-mixed-case-and-cl4", AMBIGUOUS, "BothTeClPresent", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("TrAnSfEr-EnCoDiNg", " ChUnKeD"), ("Content-Length", " 4")]),
    ("browser-te-cow-and-cl", SEVERE, "BadTransferEncoding", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " chunked"), ("Transfer-Encoding", " cow"),
         ("Content-Length", " 6")]),
    ("browser-te-name-leading-nul-cl6", SEVERE, "BadHeader", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE, ("Content-Length", " 6"),
         ("\x00Transfer-Encoding", " chunked")]),
    ("browser-te-value-leading-nul", SEVERE, "BadHeader", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("Transfer-Encoding", " \x00chunked"), ("Content-Length", " 6")]),
    ("browser-te-mixed-case-and-cl6", AMBIGUOUS, "BothTeClPresent", "POST", "/test.html", "HTTP/1.1",
        [UA, ACCEPT, LANGUAGE, ENCODING, FORM, CONNECTION, UPGRADE,
         ("TrAnSfEr-EnCoDiNg", " ChUnKeD"), ("Content-Length", " 6")]),
]


def request_bytes(method, target, version, fields):
    """The request's bytes, assembled as described at the top."""
    lines = [method + " " + target + " " + version]
    lines += [name + ": " + value for name, value in fields]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8")


def expected_text():
    out = ["# SPDX-License-Identifier: MIT",
           "# The tier and reason http_desync_guardian gives each request in cases/, one case a line:",
           "#   <name> <TIER> <anchor-reason>",
           "# <name> is cases/<name>.http; TIER is COMPLIANT, ACCEPTABLE, AMBIGUOUS or SEVERE; the",
           "# reason is the anchor's name for it ('-' when it gives none). Facts from %s" % SOURCE[0],
           "# at commit %s (%s), its tests/*.yaml; the" % (SOURCE[1], SOURCE[2]),
           "# comment before each group names the file. Written by make_cases.py: edit the table there."]
    for row in CASES:
        if isinstance(row, str):
            out.append("# " + row)
        else:
            name, tier, reason = row[:3]
            out.append("%s %s %s" % (name, tier, reason or "-"))
    return "\n".join(out) + "\n"


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] and not check:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    cases_dir = os.path.join(here, "cases")
    want = {}
    for row in CASES:
        if isinstance(row, str):
            continue
        name, tier, reason, method, target, version, fields = row
        assert tier in (COMPLIANT, ACCEPTABLE, AMBIGUOUS, SEVERE), name
        assert name not in want and name.replace("-", "").isalnum() and name == name.lower(), name
        want[name + ".http"] = request_bytes(method, target, version, fields)
    expected = expected_text().encode()
    if check:
        have = sorted(os.listdir(cases_dir)) if os.path.isdir(cases_dir) else []
        bad = [f for f in sorted(set(have) | set(want))
               if f not in want or f not in have
               or open(os.path.join(cases_dir, f), "rb").read() != want[f]]
        path = os.path.join(here, "expected.txt")
        if not os.path.exists(path) or open(path, "rb").read() != expected:
            bad.append("../expected.txt")
        for f in bad:
            print("differs: cases/" + f)
        print("%d cases, %d files differ" % (len(want), len(bad)))
        sys.exit(1 if bad else 0)
    os.makedirs(cases_dir, exist_ok=True)
    for f in os.listdir(cases_dir):
        if f.endswith(".http"):
            os.remove(os.path.join(cases_dir, f))
    for f, data in want.items():
        with open(os.path.join(cases_dir, f), "wb") as out:
            out.write(data)
    with open(os.path.join(here, "expected.txt"), "wb") as out:
        out.write(expected)
    print("%d cases written" % len(want))


if __name__ == "__main__":
    main()
