"""Replies to a pbem mail as mail clients write them, made at random from a seed: a client's shape
(Gmail, Apple Mail, Outlook, Thunderbird, Samsung, GMX/web.de, Yahoo, a phone; plain or HTML), a
language (the client's words in it), an order typed alone on a line, and what the player or his client
puts around it (a greeting, a closing, a name, a `-- ` signature, a phone's line, a company banner).
Each reply knows the order in it and the lines the player wrote himself, so that a test or `make bench`
can check what pbem reads in it.

The clients' lines are written here from the formats the clients are known to write, in each language;
nothing is copied from another project's collection.
"""

from __future__ import annotations

import email.policy
import html
import random
import textwrap
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Callable

GM_NAME, GM_ADDRESS = "pbem", "gm@example.org"
PLAYER = ("Anna Berg", "anna@example.net")

# Each language: the attribution lines of Gmail, Apple Mail and Thunderbird; a short one; an Outlook
# header block (From, Sent, To, Subject); the separators of Outlook, Samsung and a forward; phone and app
# lines; a greeting and a closing.
LANGUAGES: dict[str, dict[str, object]] = {
    "en": dict(gmail="On Wed, Nov 25, 2026 at 6:00 PM {gm} wrote:", apple="On 25 Nov 2026, at 18:00, {gm} wrote:",
               tbird="On 25/11/2026 18:00, {name} wrote:", short="{name} wrote:",
               header=("From", "Sent", "To", "Subject"), sent="Wednesday, November 25, 2026 6:00 PM",
               original="-----Original Message-----", samsung="-------- Original message --------",
               forward="---------- Forwarded message ---------",
               phone=["Sent from my iPhone", "Sent from my Galaxy", "Get Outlook for Android",
                      "Sent from Yahoo Mail on Android", "Sent using the mobile mail app", "Sent from my iPad"],
               hi="Hi,", bye="Regards,"),
    "de": dict(gmail="Am Mi., 25. Nov. 2026 um 18:00 Uhr schrieb {gm}:", apple="Am 25.11.2026 um 18:00 schrieb {gm}:",
               tbird="Am 25.11.26 um 18:00 schrieb {name}:", short="{name} schrieb:",
               header=("Von", "Gesendet", "An", "Betreff"), sent="Mittwoch, 25. November 2026 18:00",
               original="-----Ursprüngliche Nachricht-----", samsung="-------- Ursprüngliche Nachricht --------",
               forward="---------- Weitergeleitete Nachricht ---------",
               phone=["Von meinem iPhone gesendet", "Von meinem Samsung Galaxy Smartphone gesendet.",
                      "Outlook für Android herunterladen", "Gesendet mit der WEB.DE Mail App"],
               hi="Hallo,", bye="Viele Grüße"),
    "nl": dict(gmail="Op wo 25 nov 2026 om 18:00 schreef {gm}:",
               apple="Op 25 nov. 2026 om 18:00 heeft {gm} het volgende geschreven:",
               tbird="Op 25-11-2026 om 18:00 schreef {name}:", short="{name} schreef:",
               header=("Van", "Verzonden", "Aan", "Onderwerp"), sent="woensdag 25 november 2026 18:00",
               original="-----Oorspronkelijk bericht-----", samsung="-------- Oorspronkelijk bericht --------",
               forward="---------- Doorgestuurd bericht ---------",
               phone=["Verstuurd vanaf mijn iPhone", "Verzonden vanaf mijn Galaxy", "Outlook voor iOS downloaden"],
               hi="Hoi,", bye="Groeten,"),
    "fr": dict(gmail="Le mer. 25 nov. 2026 à 18:00, {gm} a écrit :", apple="Le 25 nov. 2026 à 18:00, {gm} a écrit :",
               tbird="Le 25/11/2026 à 18:00, {name} a écrit :", short="{name} a écrit :",
               header=("De", "Envoyé", "À", "Objet"), sent="mercredi 25 novembre 2026 18:00",
               original="-----Message d'origine-----", samsung="-------- Message d'origine --------",
               forward="---------- Message transféré ---------",
               phone=["Envoyé de mon iPhone", "Envoyé depuis mon appareil Galaxy", "Télécharger Outlook pour Android"],
               hi="Bonjour,", bye="Cordialement,"),
    "es": dict(gmail="El mié, 25 nov 2026 a las 18:00, {gm_paren} escribió:",
               apple="El 25 nov 2026, a las 18:00, {gm} escribió:", tbird="El 25/11/26 a las 18:00, {name} escribió:",
               short="{name} escribió:", header=("De", "Enviado", "Para", "Asunto"),
               sent="miércoles, 25 de noviembre de 2026 18:00", original="-----Mensaje original-----",
               samsung="-------- Mensaje original --------", forward="---------- Mensaje reenviado ---------",
               phone=["Enviado desde mi iPhone", "Enviado desde mi Samsung Galaxy", "Obtener Outlook para Android"],
               hi="Hola,", bye="Saludos,"),
    "it": dict(gmail="Il giorno mer 25 nov 2026 alle ore 18:00 {gm} ha scritto:",
               apple="Il giorno 25 nov 2026, alle ore 18:00, {gm} ha scritto:",
               tbird="Il 25/11/26 18:00, {name} ha scritto:", short="{name} ha scritto:",
               header=("Da", "Inviato", "A", "Oggetto"), sent="mercoledì 25 novembre 2026 18:00",
               original="-----Messaggio originale-----", samsung="-------- Messaggio originale --------",
               forward="---------- Messaggio inoltrato ---------",
               phone=["Inviato da iPhone", "Inviato dal mio Galaxy", "Scarica Outlook per Android"],
               hi="Ciao,", bye="Saluti,"),
    "pt": dict(gmail="Em qua., 25 de nov. de 2026 às 18:00, {gm} escreveu:",
               apple="Em 25 de nov. de 2026, à(s) 18:00, {gm} escreveu:",
               tbird="Em 25/11/2026 18:00, {name} escreveu:", short="{name} escreveu:",
               header=("De", "Enviado", "Para", "Assunto"), sent="quarta-feira, 25 de novembro de 2026 18:00",
               original="-----Mensagem original-----", samsung="-------- Mensagem original --------",
               forward="---------- Mensagem encaminhada ---------",
               phone=["Enviado do iPhone", "Enviado do meu Galaxy", "Obter o Outlook para Android"],
               hi="Olá,", bye="Abraços,"),
    "da": dict(gmail="Den ons. 25. nov. 2026 kl. 18.00 skrev {gm}:", apple="Den 25. nov. 2026 kl. 18.00 skrev {gm}:",
               tbird="Den 25.11.2026 kl. 18.00 skrev {name}:", short="{name} skrev:",
               header=("Fra", "Sendt", "Til", "Emne"), sent="25. november 2026 18:00",
               original="-----Oprindelig meddelelse-----", samsung="-------- Oprindelig meddelelse --------",
               forward="---------- Videresendt meddelelse ---------",
               phone=["Sendt fra min iPhone", "Sendt fra min iPad", "Hent Outlook til Android"],
               hi="Hej,", bye="Venlig hilsen"),
    "sv": dict(gmail="Den ons 25 nov. 2026 kl 18:00 skrev {gm}:", apple="25 nov. 2026 kl. 18:00 skrev {gm}:",
               tbird="Den 2026-11-25 kl. 18:00, skrev {name}:", short="{name} skrev:",
               header=("Från", "Skickat", "Till", "Ämne"), sent="den 25 november 2026 18:00",
               original="-----Ursprungligt meddelande-----", samsung="-------- Originalmeddelande --------",
               forward="---------- Vidarebefordrat meddelande ---------",
               phone=["Skickat från min iPhone", "Skickat från min Galaxy", "Hämta Outlook för Android"],
               hi="Hej,", bye="Med vänliga hälsningar"),
    "no": dict(gmail="ons. 25. nov. 2026 kl. 18:00 skrev {gm}:", apple="25. nov. 2026 kl. 18:00 skrev {gm}:",
               tbird="Den 25.11.2026 18:00, skrev {name}:", short="{name} skrev:",
               header=("Fra", "Sendt", "Til", "Emne"), sent="onsdag 25. november 2026 18:00",
               original="-----Opprinnelig melding-----", samsung="-------- Opprinnelig melding --------",
               forward="---------- Videresendt melding ---------",
               phone=["Sendt fra min iPhone", "Sendt fra min Samsung Galaxy-smarttelefon.", "Hent Outlook for Android"],
               hi="Hei,", bye="Med vennlig hilsen"),
    "pl": dict(gmail="śr., 25 lis 2026 o 18:00 {gm} napisał(a):",
               apple="Wiadomość napisana przez {gm} w dniu 25.11.2026, o godz. 18:00:",
               tbird="W dniu 25.11.2026 o 18:00, {name} pisze:", short="{name} napisał:",
               header=("Od", "Wysłano", "Do", "Temat"), sent="środa, 25 listopada 2026 18:00",
               original="-----Oryginalna wiadomość-----", samsung="-------- Oryginalna wiadomość --------",
               forward="---------- Przekazana wiadomość ---------",
               phone=["Wysłane z iPhone'a", "Wysłane z mojego Galaxy", "Pobierz aplikację Outlook dla Android"],
               hi="Cześć,", bye="Pozdrawiam,"),
    "hu": dict(gmail="{gm} ezt írta (időpont: 2026. nov. 25., Sze 18:00):",
               apple="2026. nov. 25. dátummal, 18:00 időpontban {gm} írta:",
               tbird="2026. 11. 25. 18:00 keltezéssel, {name} írta:", short="{name} írta:",
               header=("Feladó", "Elküldve", "Címzett", "Tárgy"), sent="2026. november 25. 18:00",
               original="-----Eredeti üzenet-----", samsung="-------- Eredeti üzenet --------",
               forward="---------- Továbbított üzenet ----------",
               phone=["Elküldve az iPhone-omról", "Samsung Galaxy okostelefonról küldve"],
               hi="Szia,", bye="Üdv,"),
    "cs": dict(gmail="st 25. 11. 2026 v 18:00 odesílatel {gm} napsal:",
               apple="25. 11. 2026 v 18:00, {gm} napsal(a):",
               tbird="Dne 25. 11. 2026 v 18:00 {name} napsal(a):", short="{name} napsal:",
               header=("Od", "Odesláno", "Komu", "Předmět"), sent="středa 25. listopadu 2026 18:00",
               original="-----Původní zpráva-----", samsung="-------- Původní zpráva --------",
               forward="---------- Přeposlaná zpráva ---------",
               phone=["Odesláno z iPhonu", "Odesláno z mého Galaxy"], hi="Ahoj,", bye="S pozdravem"),
    "fi": dict(gmail="ke 25.11.2026 klo 18.00 {gm_paren} kirjoitti:", apple="25.11.2026 kello 18.00 {gm} kirjoitti:",
               tbird="{name} kirjoitti 25.11.2026 klo 18.00:", short="{name} kirjoitti:",
               header=("Lähettäjä", "Lähetetty", "Vastaanottaja", "Aihe"), sent="keskiviikko 25. marraskuuta 2026 18.00",
               original="-----Alkuperäinen viesti-----", samsung="-------- Alkuperäinen viesti --------",
               forward="---------- Välitetty viesti ---------",
               phone=["Lähetetty iPhonesta", "Lähetetty Samsung Galaxy -älypuhelimesta"], hi="Hei,", bye="Terveisin,"),
    "ru": dict(gmail="ср, 25 нояб. 2026 г. в 18:00, {gm}:", apple="25 нояб. 2026 г., в 18:00, {gm} написал(а):",
               tbird="25.11.2026 18:00, {name} пишет:", short="{name} пишет:",
               header=("От", "Отправлено", "Кому", "Тема"), sent="25 ноября 2026 г. 18:00",
               original="-----Исходное сообщение-----", samsung="-------- Исходное сообщение --------",
               forward="---------- Пересылаемое сообщение ---------",
               phone=["Отправлено с iPhone", "Отправлено с моего Galaxy"], hi="Привет,", bye="С уважением,"),
}
MAIN = ("en", "de", "nl")  # the languages pbem's players write in most
LISTED = ("fr", "es", "it", "pt", "da", "sv", "no", "pl")

# Orders as a player types them alone on a line (Medici), and the order each is
ORDERS = [("draw", "draw"), ("Draw", "draw"), ("auction", "auction"), ("pass", "pass"), ("bid 7", {"bid": 7}),
          ("Bid 7.", {"bid": 7}), ("bid: 12", {"bid": 12}), ("bieten 9", {"bid": 9}), ("trekken", "draw"),
          ("Auction!", "auction")]


@dataclass
class Reply:
    """One reply: its shape, language, the order line typed and the order it is, the mail, and the lines
    the player wrote himself (what `own_text` must find, blank lines aside)."""

    shape: str
    kind: str
    language: str
    line: str
    order: object
    own: list[str]
    plain: str | None = None
    markup: str | None = None
    extras: list[str] = field(default_factory=list)  # what was put around the order
    tail: str = "none"  # the kind of what is under the order: a name, a signature, a phone's line...

    def mail(self, answered: EmailMessage | None = None, sender: str = PLAYER[1]) -> bytes:
        """The reply as a mail, threaded to `answered` when given."""
        msg = EmailMessage(policy=email.policy.SMTP)
        msg["From"] = f"{PLAYER[0]} <{sender}>"
        msg["To"] = f"{GM_NAME} <{GM_ADDRESS}>"
        subject = str(answered["Subject"]) if answered is not None else "[pbem] m1 turn 3: your move"
        msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
        msg["Date"] = "Wed, 25 Nov 2026 18:30:00 +0100"
        msg["Message-ID"] = f"<gen.{self.shape}.{self.language}.{abs(hash(self.plain or self.markup)) % 10**9}@example.net>"
        if answered is not None:
            mid = str(answered["Message-ID"])
            msg["In-Reply-To"] = mid
            msg["References"] = " ".join([*str(answered.get("References", "")).split(), mid])
        if self.plain is not None:
            msg.set_content(self.plain, cte="quoted-printable")
            if self.markup is not None:
                msg.add_alternative(self.markup, subtype="html", cte="quoted-printable")
        else:
            msg.set_content(self.markup or "", subtype="html", cte="quoted-printable")
        return msg.as_bytes()


@dataclass
class Context:
    """What a shape writes with: the language's words, the answered mail's text and subject, the player's
    own lines above (`top`) and below (`tail`) the order, and the order line."""

    words: dict[str, object]
    report: str
    subject: str
    line: str
    top: list[str]
    tail: list[str]
    rnd: random.Random

    def w(self, key: str) -> str:
        value = str(self.words[key])
        return value.format(gm=f"{GM_NAME} <{GM_ADDRESS}>", gm_paren=f"{GM_NAME} (<{GM_ADDRESS}>)", name=GM_NAME)

    @property
    def own(self) -> str:
        return "\n".join([*self.top, self.line, *self.tail])

    def quoted(self) -> str:
        return "\n".join(f"> {line}" if line else ">" for line in self.report.split("\n"))

    def header_block(self, bold: bool = False, date_first: bool = False) -> list[str]:
        names = list(self.words["header"])  # type: ignore[call-overload]
        values = [f"{GM_NAME} <{GM_ADDRESS}>", str(self.words["sent"]), f"{PLAYER[0]} <{PLAYER[1]}>", self.subject]
        rows = list(zip(names, values))
        if date_first:
            rows = [rows[1], rows[0], *rows[2:]]
        return [f"**{k}:** {v}" if bold else f"{k}: {v}" for k, v in rows]


def _wrap_attribution(line: str, width: int = 76) -> list[str]:
    """An attribution wrapped as Gmail and others wrap a long one: before the address, or at a space."""
    if len(line) <= width:
        return [line]
    if "<" in line and line.index("<") < width:
        cut = line.index("<") + 1
        return [line[:cut], line[cut:]]
    cut = line.rfind(" ", 0, width)
    return [line[:cut], line[cut + 1:]]


def _html_lines(lines: list[str]) -> str:
    return "".join(f"<div>{html.escape(line) if line else '<br>'}</div>" for line in lines)


def _pre(text: str) -> str:
    return f'<pre style="white-space: pre-wrap">{html.escape(text)}</pre>'


# -- the clients' shapes: each (Context) -> (plain, markup) -------------------------------------------

Shape = Callable[[Context], tuple[str | None, str | None]]


def gmail_plain(c: Context) -> tuple[str | None, str | None]:
    head = "\n".join(_wrap_attribution(c.w("gmail")))
    return f"{c.own}\n\n{head}\n\n{c.quoted()}\n", None


def gmail_html(c: Context) -> tuple[str | None, str | None]:
    markup = (f'<div dir="ltr">{_html_lines(c.own.split(chr(10)))}</div><br><div class="gmail_quote">'
              f'<div dir="ltr" class="gmail_attr">{html.escape(c.w("gmail"))}<br></div>'
              f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">{_pre(c.report)}</blockquote></div>')
    return None, markup


def apple_plain(c: Context) -> tuple[str | None, str | None]:
    return f"{c.own}\n\n> {c.w('apple')}\n>\n{c.quoted()}\n", None


def apple_html(c: Context) -> tuple[str | None, str | None]:
    markup = (f"<html><body>{_html_lines(c.own.split(chr(10)))}<div><br><blockquote type=\"cite\">"
              f"<div>{html.escape(c.w('apple'))}</div>{_pre(c.report)}</blockquote></div></body></html>")
    return f"{c.own}\n\n> {c.w('apple')}\n>\n{c.quoted()}\n", markup


def outlook_desktop(c: Context) -> tuple[str | None, str | None]:
    block = "\n".join(c.header_block())
    return f"{c.own}\n\n{'_' * 32}\n{block}\n\n{c.report}\n", None


def outlook_original(c: Context) -> tuple[str | None, str | None]:
    block = "\n".join(c.header_block())
    return f"{c.own}\n\n{c.w('original')}\n{block}\n\n{c.report}\n", None


def outlook_dashes(c: Context) -> tuple[str | None, str | None]:
    """Outlook's rule line of dashes (some versions), over a header block with the address wrapped."""
    rows = c.header_block()
    first = rows[0].replace(f" <{GM_ADDRESS}>", f" <\n{GM_ADDRESS}>")
    return f"{c.own}\n\n{'-' * 40}\n{first}\n" + "\n".join(rows[1:]) + f"\n\n{c.report}\n", None


def outlook_web_html(c: Context) -> tuple[str | None, str | None]:
    names = list(c.words["header"])  # type: ignore[call-overload]
    rows = "".join(f"<b>{html.escape(k)}:</b> {html.escape(v)}<br>" for k, v in
                   zip(names, [f"{GM_NAME} <{GM_ADDRESS}>", str(c.words["sent"]), PLAYER[0], c.subject]))
    markup = (f'<html><body><div dir="ltr">{_html_lines(c.own.split(chr(10)))}</div><div id="appendonsend"></div>'
              f'<hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg" dir="ltr">'
              f'<font face="Calibri">{rows}</font></div><div>{_pre(c.report)}</div></body></html>')
    return None, markup


def outlook_hr_html(c: Context) -> tuple[str | None, str | None]:
    """A web client that writes only an <hr> above the header block of the mail answered."""
    rows = "".join(f"<div><b>{html.escape(k)}:</b> {html.escape(v)}</div>" for k, v in
                   zip(list(c.words["header"]), [f"{GM_NAME} <{GM_ADDRESS}>", str(c.words["sent"]),  # type: ignore[call-overload]
                                                 PLAYER[0], c.subject]))
    markup = f"<html><body>{_html_lines(c.own.split(chr(10)))}<hr>{rows}<div>{_pre(c.report)}</div></body></html>"
    return None, markup


def gmx_html(c: Context) -> tuple[str | None, str | None]:
    """GMX and web.de: the header block, date first, in bold, inside <div name="quote">."""
    rows = c.header_block(date_first=True)
    inner = "".join(f"<div><b>{html.escape(r.split(':', 1)[0])}:</b>{html.escape(r.split(':', 1)[1])}</div>"
                    for r in rows)
    markup = (f"<html><body><div>{_html_lines(c.own.split(chr(10)))}<div>&nbsp;</div>"
              f'<div name="quote" style="margin:10px 5px 5px 10px">{inner}'
              f'<div name="quoted-content">{_pre(c.report)}</div></div></div></body></html>')
    plain = f"{c.own}\n\n\u00a0\n\n" + "\n".join(c.header_block(bold=True, date_first=True)) + f"\n\n{c.report}\n"
    return plain, markup


def thunderbird_bottom(c: Context) -> tuple[str | None, str | None]:
    return f"{c.w('tbird')}\n{c.quoted()}\n\n{c.own}\n", None


def thunderbird_html(c: Context) -> tuple[str | None, str | None]:
    markup = (f'<html><body><div class="moz-cite-prefix">{html.escape(c.w("tbird"))}<br></div>'
              f'<blockquote type="cite">{_pre(c.report)}</blockquote>{_html_lines(c.own.split(chr(10)))}</body></html>')
    return None, markup


def samsung(c: Context) -> tuple[str | None, str | None]:
    """Samsung Email: the separator, and the header on the line after it or on the same line."""
    same = c.rnd.random() < 0.5
    fields = c.header_block()
    block = (f"{c.w('samsung')}{fields[0]} {fields[1]}\n" if same else f"{c.w('samsung')}\n{fields[0]}\n{fields[1]}\n")
    return f"{c.own}\n\n{block}" + "\n".join(fields[2:]) + f"\n\n{c.report}\n", None


def yahoo_html(c: Context) -> tuple[str | None, str | None]:
    markup = (f'<html><body><div class="ydp1f2e3yahoo-style-wrap">{_html_lines(c.own.split(chr(10)))}</div>'
              f'<div id="yahoo_quoted_1234" class="yahoo_quoted"><div>{html.escape(c.w("short"))}</div>'
              f"<div>{_pre(c.report)}</div></div></body></html>")
    return None, markup


def forwarded_below(c: Context) -> tuple[str | None, str | None]:
    block = "\n".join(c.header_block())
    return f"{c.own}\n\n{c.w('forward')}\n{block}\n\n{c.report}\n", None


def three_line_attribution(c: Context) -> tuple[str | None, str | None]:
    """An attribution wrapped over three lines, the date and the time each on its own."""
    line = c.w("apple")
    if line.count(", ") >= 2:  # iOS: `On 25 Nov 2026,` / `at 18:00,` / `pbem <gm@example.org> wrote:`
        first, second, rest = line.split(", ", 2)
        rows = [first + ",", second + ",", rest]
    else:  # a narrow window wraps it at a space
        rows = textwrap.wrap(line, 34, break_long_words=False, break_on_hyphens=False)
    head = "\n".join(rows)
    return f"{c.own}\n\n{head}\n\n{c.quoted()}\n", None


def date_first(c: Context) -> tuple[str | None, str | None]:
    """An attribution that begins with the date (some webmails), wrapped before the address."""
    return f"{c.own}\n\n2026-11-25 18:00 GMT+01:00 {GM_NAME} <\n{GM_ADDRESS}>:\n\n{c.quoted()}\n", None


def name_first(c: Context) -> tuple[str | None, str | None]:
    """An attribution that begins with the name and address, the date after the verb, wrapped."""
    verb = {"de": "schrieb am Mi., 25. Nov. 2026", "en": "wrote on Wed, Nov 25, 2026"}.get(
        str(c.words.get("_lang")), c.w("short").replace(GM_NAME, "").strip(" :") + " 25.11.2026")
    return f"{c.own}\n\n{GM_NAME} <{GM_ADDRESS}> {verb}\num 18:00:\n\n{c.quoted()}\n", None


def dashed_attribution(c: Context) -> tuple[str | None, str | None]:
    return f"{c.own}\n\n---- {c.w('short').rstrip(' :')} ----\n\n{c.quoted()}\n", None


def glued_attribution(c: Context) -> tuple[str | None, str | None]:
    verb = c.w("short").replace(GM_NAME, "").strip()
    return f"{c.own}\n\n{GM_NAME} <{GM_ADDRESS}>{verb}\n{c.quoted()}\n", None


def unquoted_copy(c: Context) -> tuple[str | None, str | None]:
    """An attribution over an unquoted copy of the mail (Apple Mail, some phones)."""
    return f"{c.own}\n\n{c.w('apple')}\n\n{c.report}\n", None


def phone_above(c: Context) -> tuple[str | None, str | None]:
    """The phone's line above the text: the player typed below it."""
    phone = c.rnd.choice(list(c.words["phone"]))  # type: ignore[call-overload]
    return f"{phone}\n\n{c.own}\n\n{c.w('gmail')}\n\n{c.quoted()}\n", None


def greeting_above_quote(c: Context) -> tuple[str | None, str | None]:
    """A greeting above the attribution, the order below the quote."""
    return f"{c.words['hi']}\n\n{c.w('apple')}\n{c.quoted()}\n\n{c.own}\n", None


def banner_top(c: Context) -> tuple[str | None, str | None]:
    banner = ("CAUTION: This email originated from outside of the organization. Do not click links or open\n"
              "attachments unless you recognize the sender and know the content is safe.")
    return f"{banner}\n\n{c.own}\n\n{c.w('gmail')}\n\n{c.quoted()}\n", None


SHAPES: dict[str, tuple[str, Shape]] = {  # name: (kind, shape)
    "gmail-plain": ("attribution", gmail_plain), "gmail-html": ("html", gmail_html),
    "apple-plain": ("attribution", apple_plain), "apple-html": ("html", apple_html),
    "outlook-desktop": ("header", outlook_desktop), "outlook-original": ("separator", outlook_original),
    "outlook-dashes": ("separator", outlook_dashes), "outlook-web-html": ("html", outlook_web_html),
    "hr-html": ("html", outlook_hr_html), "gmx-html": ("header", gmx_html),
    "thunderbird-bottom": ("attribution", thunderbird_bottom), "thunderbird-html": ("html", thunderbird_html),
    "samsung": ("separator", samsung), "yahoo-html": ("html", yahoo_html),
    "forwarded-below": ("separator", forwarded_below), "three-line-attribution": ("attribution", three_line_attribution),
    "date-first": ("attribution", date_first), "name-first": ("attribution", name_first),
    "dashed-attribution": ("attribution", dashed_attribution), "glued-attribution": ("attribution", glued_attribution),
    "unquoted-copy": ("attribution", unquoted_copy), "phone-above": ("phone", phone_above),
    "greeting-above-quote": ("text-around", greeting_above_quote), "banner-top": ("banner", banner_top),
}

# What the player or his client writes under the order: (lines, how many of them are the player's own
# text as own_text finds it, kind). A `-- ` signature and a phone's line are not his text.
TAILS: list[tuple[list[str], int, str]] = [
    ([], 0, "none"), (["-- ", "Anna Berg"], 0, "signature"), (["Anna"], 1, "name"), (["-Anna"], 1, "name"),
    (["Bob"], 1, "name"), (["Regards,", "John Doe", "CEO @ Acme"], 3, "signature"),
    (["{bye}", "Anna"], 2, "closing"), (["", "{phone}"], 0, "phone"),
    (["", "Sent from my desk, it is easier than my phone."], 1, "phone"),
    (["Anna", "", "\u1427"], 1, "banner"),
]


def generate(seed: str, n: int, languages: tuple[str, ...] | None = None, report: str | None = None,
             subject: str = "[pbem] m1 turn 3: your move", orders: list[tuple[str, object]] | None = None) -> list[Reply]:
    """`n` replies at random from `seed` (the same seed, the same replies): each a shape, a language, an
    order (from `orders`, else `ORDERS`) and what surrounds it, quoting `report` (the mail answered)."""
    rnd = random.Random(seed)
    langs = languages or tuple(LANGUAGES)
    text = (report or SAMPLE_REPORT).replace("\r\n", "\n").rstrip("\n")
    out = []
    for _ in range(n):
        lang = rnd.choice(langs)
        words = dict(LANGUAGES[lang], _lang=lang)
        name, (kind, shape) = rnd.choice(list(SHAPES.items()))
        line, order = rnd.choice(orders or ORDERS)
        tail, own_tail, tail_kind = rnd.choice(TAILS)
        if shape in (thunderbird_bottom, thunderbird_html, greeting_above_quote) and tail_kind == "phone":
            tail, own_tail, tail_kind = [], 0, "none"  # under a bottom-posted answer no phone writes its line
        tail = [t.format(bye=words["bye"], phone=rnd.choice(list(words["phone"]))) for t in tail]  # type: ignore[call-overload]
        top = [str(words["hi"])] if rnd.random() < 0.2 and shape is not greeting_above_quote else []
        c = Context(words, text, subject, line, top, tail, rnd)
        plain, markup = shape(c)
        own = [*top, line, *[t for t in tail[:len(tail)] if t.strip()][:own_tail]]
        if shape is greeting_above_quote:
            own = [str(words["hi"]), *own]
        out.append(Reply(name, kind, lang, line, order, [o for o in own if o.strip()], plain, markup, [*top, *tail],
                         tail_kind))
    return out


SAMPLE_REPORT = """MEDICI m1 - turn 3 - report for anna
Medici, 3 players, day 1 of 3

ON THE TABLE NOW
  Auctioneer: anna. The lot: grain 4 (value 4; it may grow to 3 cards).

YOUR MOVE
  You are the auctioneer: draw another card, or put the lot up for
  auction.

  You may send: draw, auction
  Reply to this mail with one line, for example:
    draw
  or a command: help, status, games, standing, undo.

--
pbem, game master of m1"""
