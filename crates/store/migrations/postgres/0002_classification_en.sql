-- The age classification in English, for pages not in Hebrew ("הותר לכל" is "All ages").
ALTER TABLE features ADD COLUMN classification_en TEXT NOT NULL DEFAULT '';
