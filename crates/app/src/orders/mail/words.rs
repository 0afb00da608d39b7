//! The confirmation mail's words, in Hebrew and English, for screenings and for a film watched at
//! home.

pub(super) struct Words {
    pub chain: &'static str,
    pub greeting: &'static str,
    pub paid: &'static str,
    pub view: &'static str,
    pub venue: &'static str,
    pub date: &'static str,
    pub time: &'static str,
    pub doors: &'static str,
    pub reservation: &'static str,
    pub tickets: &'static str,
    pub section: &'static str,
    pub row: &'static str,
    pub seat: &'static str,
    pub general_admission: &'static str,
    pub digital_ticket: &'static str,
    pub attached: &'static str,
    pub pdf: &'static str,
    pub qr_hint: &'static str,
    pub terms: &'static str,
    pub link_valid: &'static str,
    /// An order of several screenings, before them: `{n}` is how many.
    pub several: &'static str,
    /// A film watched at home (video on demand): what it is, when and how often it may be
    /// watched, and on what.
    pub offer: &'static str,
    pub rent: &'static str,
    pub buy: &'static str,
    pub watch_from: &'static str,
    pub watch_until: &'static str,
    pub no_end: &'static str,
    pub viewings: &'static str,
    pub devices: &'static str,
}

pub(super) const HE: Words = Words {
    chain: "קולנוע קופה",
    greeting: "שלום",
    paid: "ההזמנה שולמה, והכרטיסים שלך מוכנים.",
    view: "לצפייה בכרטיסים",
    venue: "קולנוע ואולם",
    date: "תאריך",
    time: "שעה",
    doors: "כניסה לאולם",
    reservation: "מספר הזמנה",
    tickets: "הכרטיסים",
    section: "אזור",
    row: "שורה",
    seat: "מושב",
    general_admission: "ללא מקומות מסומנים",
    digital_ticket: "כרטיס דיגיטלי (QR)",
    attached: "הכרטיסים מצורפים למייל כקובץ PDF.",
    pdf: "הורדת הכרטיסים (PDF)",
    qr_hint: "בכניסה לאולם הציגו את קוד ה-QR של כל כרטיס, מהטלפון או מודפס.",
    terms: "תנאי ההזמנה",
    link_valid: "הקישורים במייל פועלים מכל מכשיר עד סוף היום שאחרי ההקרנה.",
    several: "בהזמנה {n} הקרנות, כל אחת עם הכרטיסים שלה:",
    offer: "סוג",
    rent: "השכרה",
    buy: "רכישה",
    watch_from: "צפייה החל מ־",
    watch_until: "צפייה עד",
    no_end: "כל עוד הסרט מוצע",
    viewings: "צפיות",
    devices: "צופים בדפדפן במחשב או בטלפון אנדרואיד. באייפון, באייפד ובספארי אי אפשר לצפות.",
};

/// The Hebrew words of a film watched at home: no seats, doors or printed tickets.
pub(super) const HE_VOD: Words = Words {
    paid: "ההזמנה שולמה, והסרט מחכה לך.",
    view: "לצפייה בסרט",
    tickets: "הרכישה שלך",
    link_valid: "הקישור פותח את ההזמנה מכל מכשיר; כדי לצפות במכשיר אחר, יש להתחבר שם לאזור האישי.",
    ..HE
};

pub(super) const EN: Words = Words {
    chain: "Kupa Cinemas",
    greeting: "Hello",
    paid: "Your order is paid and your tickets are ready.",
    view: "View your tickets",
    venue: "Cinema and hall",
    date: "Date",
    time: "Time",
    doors: "Doors open",
    reservation: "Reservation",
    tickets: "Your tickets",
    section: "Section",
    row: "Row",
    seat: "Seat",
    general_admission: "General admission",
    digital_ticket: "Digital ticket (QR)",
    attached: "Your tickets are attached to this mail as a PDF.",
    pdf: "Download tickets (PDF)",
    qr_hint: "At the hall's entrance, show each ticket's QR code, on your phone or printed.",
    terms: "Order terms",
    link_valid: "The links in this mail work on any device until the end of the day after the screening.",
    several: "This order has {n} screenings, each with its own tickets:",
    offer: "Type",
    rent: "Rental",
    buy: "Purchase",
    watch_from: "Watch from",
    watch_until: "Watch until",
    no_end: "As long as the film is offered",
    viewings: "Viewings",
    devices: "Watch in a browser on a computer or an Android phone. iPhone, iPad and Safari cannot play it.",
};

/// The English words of a film watched at home: no seats, doors or printed tickets.
pub(super) const EN_VOD: Words = Words {
    paid: "Your order is paid, and your film is ready.",
    view: "Watch the film",
    tickets: "Your purchase",
    link_valid: "The link opens your order on any device; to watch on another device, log in to your customer area there.",
    ..EN
};
